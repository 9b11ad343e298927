/**
 * The markers of argument.ts, matched on a sentence in lower case. They are the connectives of
 * English argument (concession, conclusion, support), not words of any text measured.
 */

/** Opens a concession: the author grants the other side a point. */
export const CONCESSION_OPENERS =
  /^(?:of course|admittedly|granted|to be sure|to be fair|it is true that|it's true that|true,|sure,|yes,|indeed\b|certainly,|no doubt,|naturally,|obviously,)\s*/;

/** The other side's voice, named ("critics say", "one could object", "some argue"). */
export const OTHER_VOICE =
  /^(?:critics|skeptics|sceptics|opponents|detractors|proponents)\b|\b(?:critics|skeptics|sceptics|opponents) (?:say|argue|point out|claim|would say|object)\b|^(?:one|you|someone) (?:could|might|may|would) (?:argue|object|say|claim|think|worry|contend|point out|counter)\b|^some (?:people )?(?:would )?(?:argue|say|claim|believe|think|disagree|object|insist)\b|^(?:many|most) (?:people )?(?:argue|say|claim|believe|think)\b|^it (?:is|has been|could be|might be) (?:often )?(?:said|argued|claimed|objected)\b|^(?:the |one |an )?(?:strongest |main |obvious |usual )?(?:counter-?argument|objection)\b/;

/**
 * Granting as a speech act: "I admit X", "one has to concede that X", "we grant that X" (the verb grants by its
 * meaning), or "Nevertheless, one has to point out that X" (a modal "note / point out /
 * acknowledge" turned against the author's line by a contrast). The modal is on the granting,
 * not on X: X is the other side's point. "We have to recognize that …" or "we must agree on …"
 * without the contrast are the author's own.
 */
export const CONCEDING_FRAME =
  /^(?:(?:nevertheless|nonetheless|however|but|still|yet|admittedly|of course),?\s+)?(?:one|we|i|you) (?:(?:(?:has|have|must|need) to|must|can|could|may|might) )?(?:admit|concede|grant that)\b|^(?:nevertheless|nonetheless|however|but|still|yet),?\s+(?:one|we|i|you) (?:(?:has|have|must|need) to|must|can|could|may|might|should) (?:point out|note|acknowledge|recogni[sz]e|mention)\b/;

/** Verbs that report what someone else holds ("My parents say …"): the lemma, as the model gives it. */
export const SPEECH_VERBS = new Set([
  'say',
  'claim',
  'argue',
  'insist',
  'warn',
  'object',
  'maintain',
  'contend',
  'complain',
  'allege',
  'assert',
  'suggest',
  'counter',
]);

/**
 * Doubt raised ("it remains questionable whether X", "it is doubtful that X"): the sentence does
 * not hold X, it puts X in question; opening as a rebuttal, it is an objection (argument.ts).
 */
export const DOUBT =
  /\b(?:it (?:is|remains|seems|appears) (?:\w+ )?(?:questionable|doubtful|debatable|unclear|uncertain|not clear|open to question)|it remains to be seen)\b(?:,? (?:whether|if|that|how))?/;

/** A sentence that opens by conceding in a clause: "Although X, Y". */
export const LEADING_CONCESSION =
  /^(?:although|though|even though|even if|while|whilst|granted that|despite|in spite of|notwithstanding)\b/;

/**
 * "Y, even if X": the clause from here on is conceded. "Y, unless X" / "Y – aside from X": an
 * exception the author grants is the other side's case too. Matched on the text as written.
 */
export const TRAILING_CONCESSION =
  /(?:[,;]|\s[–—])\s*(?:although|though|even though|even if|even when|albeit|whereas|unless|except(?: for| when| if| that)?|aside from|apart from)[\s,]/i;

/** Opens an answer to what came before. */
export const REBUTTAL_OPENER =
  /^(?:but|however|yet|still|nevertheless|nonetheless|even so|then again|on the other hand|that said|all the same)\b/;

/** Grants a possibility rather than stating a fact: before a rebuttal, the sentence is a concession. */
export const YIELDING_MODAL = /\b(?:could|may|might|can|would)\b|\bit is (?:true|possible)\b/;

/** Opens a conclusion: what follows is what the reasons before were for. */
export const CONCLUSION_OPENER =
  /^(?:(?:that|this|which) is why|(?:that|this)'s why|therefore|thus|hence|consequently|accordingly|so,|all in all|in conclusion|in short|in sum|to sum up|to conclude|overall|for (?:these|this|all these|all those|those) reasons?|as a result|that is (?:the reason )?why|for this reason)\s*,?\s*/;

/** Words that mark a stance: what should be, what the author holds. */
export const CLAIM_MARKERS = [
  /\b(?:should|must|ought to|had better|need to|needs to|have to|has to|shall)\b/,
  /\b(?:i|we) (?:(?:really|strongly|firmly|do) )?(?:think|believe|feel|am convinced|recommend|can only recommend)\b/,
  /\b(?:we|you|everyone|everybody|they|society|the state) (?:\w+ )?need\b/,
  /\bin (?:my|our) (?:opinion|view)\b|\bclearly\b|\bobviously\b|\bit is (?:\w+ )?(?:clear|obvious|time)\b/,
  /\bit (?:would|will) be (?:better|best|justified|wise|sensible|right|wrong|a mistake|fair|unfair)\b/,
  /\b(?:thus(?! far\b)|therefore|hence)\b/,
  /^(?:the|my|our|one) (?:(?:main|key|big|real|most important|first|one) )?(?:thing (?:that )?(?:i|we) (?:learned|realized|know)|lesson|point|takeaway|insight|key|bottom line) (?:is|was)\b/,
];

/** Opens a reason, an example or an addition: it supports something else. */
export const SUPPORT_OPENER =
  /^(?:because|since|as\b|for one thing|for another|besides|furthermore|moreover|plus\b|also\b|in addition|additionally|for (?:example|instance)|especially|particularly|after all|first(?:ly)?,|second(?:ly)?,|third(?:ly)?,|first of all|not only|what's more|on top of that|this is because|the reason is|after all|e\.g\.|like\b|apart from)/;

/** "People, however, who …" / "That is no problem, though.": an answer placed inside the sentence. */
export const REBUTTAL_INSIDE = /^(?:\S+\s+){0,4}?\S+,\s*however,|\bthough[.!]?$/;

/** A rebuttal that turns to the author's own conclusion ("Nevertheless, …", "Still, …"). */
export const CONCEDING_REBUTTAL = /^(?:nevertheless|nonetheless|still|even so|all the same)\b/;

/** "X should therefore …": the conclusion marked inside the sentence. */
export const CONCLUSION_INSIDE = /^(?:\S+\s+){1,8}?(?:therefore|thus(?! far\b)|hence|consequently)\b/;

/** Says yes to the other side before answering it. */
export const YES = /^(?:yes|yeah|sure|true|okay|ok|fine)\b/;

/** "Since X, Z": the leading clause is the reason for Z. */
export const LEADING_REASON = /^(?:since|because|as|given that|considering that)\s/;

/** "Z, as X" / "Z, because X": the clause from here on is the reason. Matched on the text as written. */
export const TRAILING_REASON = /[,;]\s*(?:as|because|since|for|given that)(?:\s|,\s)/i;

/** Points back to the sentence before and says how much it holds ("That is non-negotiable for me."). */
export const RESTATEMENT = /^(?:that|this|it)(?: is|'s| was| remains| stays| holds)\b/;

/** Opens a paragraph that adds to the argument before it (a narrower SUPPORT_OPENER: no "as", "also"). */
export const ADDITION_OPENER =
  /^(?:besides|furthermore|moreover|in addition|additionally|what's more|on top of that|plus,|after all|for (?:example|instance))\b/;

/** "X, but Y": the clause after answers the one before. "…, but also …" / "…, but rather …" add or correct. */
export const CONTRAST_INSIDE = /[,;]\s*(?:but|yet)\s+(?!also\b|rather\b|instead\b)/i;
