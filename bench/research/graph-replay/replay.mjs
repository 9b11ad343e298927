// Replays the graph part of snapshot search (docs/ranking.md, "Graph") over a dump made by
// dump.mjs, so that a formula is measured in a second instead of a load. The shipped formula
// reproduces the service's graph=true figures (to 0.001 with the bridge gain, whose word counts
// here are the set's own).
//   node bench/research/graph-replay/replay.mjs <dump.json>
import { INFLUENCE, report, SHIPPED } from './formula.mjs';

report('before (no bridge gain)', { ...SHIPPED, bridge: 0 });
report('shipped (bridge gain)', SHIPPED);
report('bridge gain squared', { ...SHIPPED, bridge: 2 });
report('bridge gain squared, 8 seeds', { ...SHIPPED, bridge: 2, seeds: 8 });
report('bridge by share of words', { ...SHIPPED, rarity: false });
for (const seeds of [3, 8]) report(`${seeds} seeds`, { ...SHIPPED, seeds });
for (const hub of [0.25, 1]) report(`hub damping ${hub}`, { ...SHIPPED, hub });
for (const compete of [1, 2]) report(`gain^${compete} shared by neighbours`, { ...SHIPPED, compete });
report('gain^2 shared, hub damping 0.25', { ...SHIPPED, compete: 2, hub: 0.25 });
for (const toTarget of [0.5, 0]) {
  report(`elaborates to its target ${toTarget}`, {
    ...SHIPPED,
    influence: { ...INFLUENCE, elaborates: [toTarget, 1] },
  });
}
