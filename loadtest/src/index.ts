// @felt/loadtest's library entry: the load-account naming both the load tools and the operator's
// `npm run accounts` command follow, and the play runner for programs that drive it themselves.
export * from './accounts.js';
export {
  parsePlayArgs,
  parseThink,
  PLAY_USAGE,
  type PlayConfig,
  type ThinkRange,
  type AccountSource,
} from './play-args.js';
export { runPlay, type PlayDeps, type PlayResult } from './play.js';
export { PlayStats, type PlayShape } from './play-stats.js';
export { resolveGateways } from './gateways.js';
