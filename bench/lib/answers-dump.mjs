// Each question's ranking as JSON lines, for looking into where a relevant turn went
// (bench/memory-diagnose.mjs reads them).
import { writeFileSync } from 'node:fs';

export function dumpAnswers(file, questions, answers) {
  const lines = questions.map((q) =>
    JSON.stringify({
      qid: q.qid,
      conv: q.conv,
      category: q.category,
      q: q.q,
      relevant: [...q.relevant],
      latest: q.latest,
      ranked: answers.get(q.qid) ?? [],
    }),
  );
  writeFileSync(file, `${lines.join('\n')}\n`);
}
