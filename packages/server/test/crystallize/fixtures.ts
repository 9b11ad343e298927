/** A text the built-in extractor turns into several insights: rules, beliefs, a method. */
export const NOTES = `Always write the test before you fix a bug, because a fix without a test comes back.
I believe small pull requests get better reviews than large ones. Reviewers lose focus after a few hundred lines.
To apply this, split the work into steps that each leave the build green.
However, some changes cannot be split without leaving dead code behind for a while.`;
