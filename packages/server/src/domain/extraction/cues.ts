/**
 * The cue phrases the extractor reads, in one table per question, published in
 * docs/extraction.md. Patterns are matched against a sentence in lower case, with typographic
 * apostrophes made plain.
 */
import type { SnapshotType } from '../../model.js';

export interface TypeCue {
  type: SnapshotType;
  pattern: RegExp;
  weight: number;
}

/**
 * Which kind of snapshot a sentence states. Each cue counts once per sentence; the type with
 * the highest total wins (the group's first core sentence counts double); ties go to the
 * earlier type in TYPE_PRIORITY; no cue at all means Belief, the service's default type.
 */
export const TYPE_CUES: readonly TypeCue[] = [
  // Rule: an instruction that holds every time.
  { type: 'Rule', pattern: /\brules?(?: of thumb)?\s*(?:is|:)/, weight: 3 },
  { type: 'Rule', pattern: /\bas a rule\b/, weight: 2 },
  { type: 'Rule', pattern: /\b(?:always|never)\b/, weight: 1.5 },
  { type: 'Rule', pattern: /\b(?:must|should|shouldn't|ought to|have to|has to|need to|needs to)\b/, weight: 1 },
  { type: 'Rule', pattern: /^(?:do not|don't|avoid|make sure|remember to)\b/, weight: 1 },
  // Belief: the holder's own view.
  {
    type: 'Belief',
    pattern:
      /\b(?:i|we) (?:(?:really|truly|strongly|honestly|now|still|also|do|genuinely|firmly|personally|actually) )*(?:believe|think|feel|suspect|reckon)\b/,
    weight: 2,
  },
  { type: 'Belief', pattern: /\bin (?:my|our) (?:view|opinion|experience|mind)\b/, weight: 2 },
  { type: 'Belief', pattern: /\b(?:my|our) (?:belief|view|sense|take|hunch|bet) is\b/, weight: 2 },
  { type: 'Belief', pattern: /\b(?:it seems to me|i'd argue|i would argue|i've come to see)\b/, weight: 1.5 },
  { type: 'Belief', pattern: /\b(?:i|we) (?:learned|realized|realised|discovered|found out) that\b/, weight: 1 },
  // Model: how something works, cause and effect.
  { type: 'Model', pattern: /\bis a model (?:of|for)\b|\bmental model\b/, weight: 3 },
  { type: 'Model', pattern: /\bworks by\b|\bthe mechanism\b|\bfeedback loop\b/, weight: 2 },
  { type: 'Model', pattern: /\bif\b.+\bthen\b/, weight: 2 },
  {
    type: 'Model',
    pattern: /\bthe (?:more|less|better|faster)\b.+,\s*the (?:more|less|better|worse|faster|slower)\b/,
    weight: 2,
  },
  {
    type: 'Model',
    pattern:
      /\b(?:causes?|caused by|leads? to|led to|results? in|drives|determines|depends on|is a function of|compounds?|because)\b/,
    weight: 1,
  },
  // Conviction: held without condition.
  {
    type: 'Conviction',
    pattern: /\b(?:i am|i'm|we are|we're) (?:absolutely |deeply |utterly |totally |fully )?(?:convinced|certain)\b/,
    weight: 3,
  },
  { type: 'Conviction', pattern: /\b(?:i|we) (?:will|would) never\b|\b(?:i|we)'(?:ll|d) never\b/, weight: 3 },
  { type: 'Conviction', pattern: /\bnon-?negotiable\b|\bno matter what\b|\bi refuse to\b/, weight: 3 },
  {
    type: 'Conviction',
    pattern: /\b(?:i|we) (?:will|'ll) always\b|\bwithout (?:a )?doubt\b|\bi know for (?:a fact|certain|sure)\b/,
    weight: 2,
  },
  // Principle: a foundation other rules come from.
  { type: 'Principle', pattern: /\bprinciples?\b/, weight: 2.5 },
  {
    type: 'Principle',
    pattern: /\bfundamentally\b|\bat (?:its|the|their) (?:core|heart|root)\b|\bfirst principles\b/,
    weight: 2,
  },
  { type: 'Principle', pattern: /\bcore value\b|\bin principle\b|\bthe underlying (?:idea|truth)\b/, weight: 2 },
];

export const TYPE_PRIORITY: readonly SnapshotType[] = ['Conviction', 'Rule', 'Principle', 'Model', 'Belief'];

/** Sentence roles beside the core statement, read from how a sentence opens (or, for some, anywhere). */
export const CHALLENGE_CUES = [
  /^(?:however|but|yet|still|that said|then again|on the other hand|admittedly|conversely|nevertheless|nonetheless|of course|to be fair)\b/,
  /^(?:the )?(?:strongest |main |obvious )?(?:counter-?argument|objection|downside|catch|caveat|risk|limitation|problem with this)\b/,
  /^(?:critics|skeptics|sceptics|opponents|detractors)\b|\b(?:critics|skeptics|sceptics) (?:say|argue|point out|claim|would say)\b/,
  /^some (?:people )?(?:would )?(?:argue|say|disagree|object)\b|\bon the other hand\b/,
];

export const METHOD_CUES = [
  /^(?:to (?:apply|use|practi[cs]e|implement|do) (?:this|it|that)|how to\b|here'?s how|in practice\b|the way to\b|the trick is\b|the method is\b|the practice is\b|start by\b|begin by\b)/,
  /\b(?:you|we) (?:can )?(?:apply|use|practi[cs]e|implement) (?:this|it) by\b|\bto apply (?:this|it)\b|\bhow to apply\b/,
];

/** Sequence words that turn prose into steps when a group has two or more of them. */
export const SEQUENCE_CUE =
  /^(?:first(?:ly)?|second(?:ly)?|third(?:ly)?|fourth|next|then|after that|afterwards|finally|lastly|step (?:one|two|three|\d+))\b/;

/** Narrative openers; past-tense sentences about a person count as story too (see roles.ts). */
export const STORY_CUES = [
  /^(?:when (?:i|we|she|he|they|my|our)\b|once\b|one (?:day|time|morning|evening|night)\b|years ago\b|a (?:few|couple of) (?:years|months|weeks) ago\b|(?:last|that) (?:year|month|week|summer|winter|spring|autumn|fall)\b)/,
  /^(?:back (?:in|when|then)\b|i remember\b|i once\b|in (?:19|20)\d\d\b|early in (?:my|our)\b|a while ago\b|the first time (?:i|we)\b|i used to\b|when i was\b)/,
];

/** Irregular past forms (regular ones end in -ed and differ from their lemma). */
export const IRREGULAR_PAST = new Set(
  (
    'was were had did went saw made took came got felt thought said told found left knew became began lost ran wrote met ' +
    'built spent brought bought sent kept held stood sat heard gave grew fell led paid sold taught caught fought won ' +
    'broke chose drove ate forgot hid rode rose shook spoke stole swore threw understood woke wore'
  ).split(' '),
);

/** Words that soften a claim (lower confidence) or harden it (raise it). */
export const HEDGE =
  /\b(?:maybe|perhaps|might|possibly|probably|i guess|not sure|i suspect|it seems|could be|sometimes|arguably)\b/g;
export const EMPHASIS =
  /\b(?:always|never|must|certainly|definitely|absolutely|without (?:a )?doubt|convinced|non-?negotiable)\b/g;

/** Greetings, thanks and sign-offs: never an insight, however many words. */
export const SMALL_TALK =
  /^(?:hi|hello|hey|good (?:morning|afternoon|evening)|welcome (?:back|everyone|to)|thanks?|thank you|bye|goodbye|see you|nice to (?:meet|see)|how are you|can you hear me|let's get started|let me share my screen)\b/;

/** Sign-offs at the end of a call or a meeting ("that's all for today", "see you next week", "talk soon"). */
export const SIGN_OFF =
  /^(?:that's (?:all|it)|that is (?:all|it)|see you|talk (?:soon|later)|have a (?:good|great|nice) (?:one|day|week|weekend))\b|\b(?:see you (?:next|soon|tomorrow|all|then)|talk soon|bye)\W*$/;

/**
 * The lines of a meeting's record that say who and when, not what: "Attendees: …",
 * "Present: …", "Apologies: …", "Date: …". Never an insight, whatever they name.
 */
export const MEETING_META =
  /^(?:attendees?|attending|present|participants?|apologies|absent|regrets|invitees?|invited|cc|date|time|when|where|location|venue|room|facilitator|chair|chaired by|note-?taker|minutes by|scribe|recorded by|duration)\s*(?:\([^)]*\))?\s*:/;

/**
 * What a meeting decided or assigned: a Rule, and a snapshot of its own. The label is read and
 * taken off ("Decision: we keep …" → "We keep …"); who and when stay in the text.
 */
export const DECISION_LABEL =
  /^(?:decision|decided|agreed|agreement|resolved|resolution|action(?: item)?|ai|todo|to-do|to do|follow-?up|next step|owner)\s*(?:\([^)]*\))?\s*[:–—-]\s+/;
/**
 * A report of who presented what ("Priya opened with the churn numbers: churn went up …"):
 * the frame is taken off, what was presented is the statement.
 */
export const REPORTING_FRAME =
  /^[\p{Lu}][\p{L}'-]*(?: [\p{Lu}][\p{L}'-]*)? (?:opened|started|kicked off|began|presented|showed|shared|reported|walked (?:us|everyone) through|explained|summari[sz]ed|recapped|noted|pointed out|reminded (?:us|everyone))\b[^:]{0,80}:\s+(?=\S)/u;

/**
 * A sentence that reports a decision ("We agreed that …", "So we decided: …"), or an action item
 * with an owner and a deadline ("Lena will add a reload check by Friday"). Matched lower-cased.
 */
export const DECISION_SENTENCE =
  /^(?:so |and )?(?:we|they|the team|everyone|everybody|the group|the board|all) (?:(?:also|all|finally|then|have|had|jointly|unanimously) )*(?:agreed|decided|resolved|committed|settled)\b|^(?:it was|it's|it is) (?:agreed|decided|resolved)\b|\b(?:from now on|going forward)\b|^(?!(?:it|this|that|there|which|he|she|they) )[a-z][a-z'-]+(?: and [a-z][a-z'-]+)? (?:will|is going to|are going to|'ll) [a-z]+\b[^.]{0,160}? by (?:(?:next |this |the end of (?:the )?)?(?:monday|tuesday|wednesday|thursday|friday|week|month|sprint|quarter|tomorrow|eod|eow)\b|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* \d{1,2}\b|\d{1,2} (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b)/;

/**
 * A lead-in label that says what kind of line follows, not what it says ("Summary: …", "One more
 * thing: …"): taken off, the rest is the statement.
 */
export const LEAD_LABEL =
  /^(?:summary|tl;?dr|background|context|impact|status|update|fyi|quick note|one (?:more|last|other) thing|quick one|also|root cause)\s*[:–—-]\s+/;

/**
 * Lines that only say what the meeting did, not what it found: an agenda line ("First item is
 * the onboarding drop-off"), a walk-through without its content ("Priya walked through the
 * timeline"), a bare reaction ("Marco disagreed slightly", "Everyone agreed"). Not insights when
 * short (docs/extraction.md, "Meetings").
 */
export const MEETING_MOVE =
  /^(?:(?:the )?(?:first|second|third|next|last|final|another|one more) (?:item|topic|point|agenda item|question)(?: on the agenda)? (?:is|was|will be)\b|(?:the )?agenda (?:is|was|today)\b|^(?:the )?[a-z]+(?: [a-z]+)? (?:came|is|are) (?:back|in)\W*$)|^[a-z][a-z'-]*(?: [a-z][a-z'-]*)? (?:walked (?:us |everyone |the team )?through|went (?:over|through)|presented|gave (?:an? )?(?:update|overview|demo)|kicked off|opened the (?:meeting|call)|summari[sz]ed|recapped)\b|^(?:[a-z][a-z'-]*(?: [a-z][a-z'-]*)?|he|she|they|we|i|everyone|everybody|nobody) (?:(?:strongly|slightly|mostly|partly|fully|all|also|quickly) )?(?:agreed|disagreed|objected|concurred|pushed back|nodded|was fine with (?:it|that)|had no objections?)\b(?: (?:slightly|strongly|a bit|somewhat|with (?:that|this|him|her|them|it)|too))?\W*$/;
/** A list header over decisions or action items: each item is one. */
export const DECISION_HEADER =
  /^(?:(?:the )?(?:decisions?|action items?|actions?|next steps?|to-?dos?|todo list|follow-?ups?|agreed|owners?|assignments?|tasks?)(?: (?:made|agreed|taken|for \w+(?: \w+)?))?)$/;
/** A list header over lessons ("What we learned", "Takeaways"): each item states an insight of its own. */
export const LESSONS_HEADER =
  /^(?:what (?:we|i) (?:learned|learnt|realized|realised|know now)|(?:key )?(?:lessons?(?: learned| learnt)?|takeaways?|learnings?|insights?|principles?|rules?|conclusions?|findings?|observations?|what went (?:well|wrong))\b)/;

/** Talk about the talk ("today I want to talk about …", "in this video"): not itself an insight. */
export const META_TALK =
  /^(?:today |so )?(?:i|we)(?:'d| would)? (?:want|like|am going|are going|'m going|'re going) to (?:talk|speak|chat|tell you) about\b|^in this (?:video|episode|talk|post|article|session)\b|^let's (?:talk|dive|jump|get) (?:about|into|started)\b|^(?:please )?(?:like and )?subscribe\b|^don't forget to (?:like|subscribe)\b|^(?:today |and )?(?:my|our) guests?(?: today)? (?:is|are)\b|^joining (?:me|us)(?: today)? (?:is|are)\b/;

/** Words that, said alone, are filler: they do not count as content. */
export const FILLER_WORDS = new Set(
  (
    'um uh erm hmm mm ah oh okay ok yeah yes yep no nope right well so like hi hello hey thanks thank bye goodbye ' +
    'welcome cool great sure alright wow anyway know mean everyone everybody guys folks ' +
    'sorry lol haha just really totally absolutely exactly indeed nice gonna wanna kinda sorta stuff thing things lot'
  ).split(' '),
);
