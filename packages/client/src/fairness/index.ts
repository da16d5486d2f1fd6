export {
  ByteStream,
  DeckKind,
  FELT_DECK_V1,
  commitOf,
  deckOrder,
  deckSeedOf,
  fisherYatesWith,
  fromHex,
  toHex,
  unshuffledDeck,
} from './derive.js';
export { VerifierError, VerifierErrorCode } from './errors.js';
export {
  deckForVariant,
  parseRevealRecord,
  type MalformedField,
  type ParsedRecord,
  type RevealRecord,
} from './record.js';
export {
  CheckStatus,
  VerifyFailureCode,
  verifyReveal,
  type VerifyChecks,
  type VerifyFailure,
  type VerifyOptions,
  type VerifyResult,
} from './verify.js';
export {
  extractRevealRecords,
  fetchRevealRecords,
  lobbyRevealUrl,
  parseRevealJson,
  type FetchRevealOptions,
} from './sources.js';
