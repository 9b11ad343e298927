export { snapgraphTools, type SnapgraphToolsOptions } from './tools.js';
