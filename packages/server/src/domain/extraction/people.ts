/**
 * The people a text names, so that no tag is a person's name ("priya", "lena"): a tag says what
 * a snapshot is about, and who said or owns it is in the text. The model tags no persons, so
 * they are read from where a text of notes puts them: attendee lines, speaker labels, the one
 * addressed ("Jordan, can you …"), and the subject of what people do ("Lena drafts …").
 */
import { MEETING_META } from './cues.js';
import type { Token } from './nlp.js';
import type { Unit } from './units.js';

/** What people do in notes and minutes: a proper noun right before one of these is a person. */
const HUMAN_VERBS = new Set(
  (
    'think say open start draft write update delete own lead take agree suggest propose present ask send follow ' +
    'check review prepare book call email share handle will can could should shall need join leave mention explain ' +
    'report note raise point feel believe want promise volunteer chase confirm schedule organise organize reach ' +
    'contact remind recap summarize summarise demo walk argue disagree object reply answer insist'
  ).split(' '),
);

function isName(token: Token | undefined): token is Token {
  return (
    token !== undefined && /^\p{Lu}[\p{Ll}'-]+$/u.test(token.text) && (token.pos === 'PROPN' || token.pos === 'NOUN')
  );
}

/** Lower-cased names of the people in `units`, with `speakers` (the labels of speaker turns). */
export function peopleOf(units: Unit[], speakers: Iterable<string>): Set<string> {
  const people = new Set<string>();
  for (const speaker of speakers) for (const word of speaker.split(/\s+/)) people.add(word.toLowerCase());
  for (const unit of units) {
    const tokens = unit.tokens;
    if (MEETING_META.test(unit.lower)) {
      const colon = tokens.findIndex((t) => t.text === ':');
      for (const token of tokens.slice(colon + 1)) if (isName(token)) people.add(token.normal);
      continue;
    }
    const first = tokens[0];
    const second = tokens[1];
    // "Jordan, can you …": the one addressed.
    if (isName(first) && first.pos === 'PROPN' && second?.text === ',') people.add(first.normal);
    // "Lena drafts …", "Priya Raman will …": a name doing what people do.
    tokens.forEach((token, i) => {
      if (token.pos !== 'PROPN' || !isName(token)) return;
      let j = i + 1;
      while (isName(tokens[j]) && tokens[j]!.pos === 'PROPN') j++;
      const verb = tokens[j];
      // The model often reads the verb of a terse action item as a noun ("Lena drafts the …").
      const terseVerb =
        unit.decision && verb !== undefined && verb.pos === 'NOUN' && /^[a-z]+(?:s|ed)$/.test(verb.text);
      if (terseVerb) for (let k = i; k < j; k++) people.add(tokens[k]!.normal);
      // In an action item ("Bruno rewrites the emails by Friday"), whoever does anything is a person.
      const human = unit.decision || HUMAN_VERBS.has(verb?.lemma ?? '');
      if (verb && (verb.pos === 'VERB' || verb.pos === 'AUX') && human) {
        for (let k = i; k < j; k++) people.add(tokens[k]!.normal);
      }
    });
  }
  return people;
}
