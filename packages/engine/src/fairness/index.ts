export { FairnessError, FairnessErrorCode } from './errors.js';
export { bytesToHex, hexToBytes } from './hex.js';
export {
  DERIVATION_VERSION,
  DeckStream,
  SEED_BYTES,
  deriveDeckSeed,
  drawLimit,
  fisherYates,
  isHandId,
  seedCommit,
  shuffleDeck,
  shuffleDeckWithStream,
  sortClientSeeds,
  uniformDraw,
  type ClientSeed,
  type DeckStreamState,
  type DerivationVersion,
} from './derivation.js';
export {
  HandDeck,
  canonicalOrder,
  reshuffle,
  type DealtCard,
  type DeckReshuffle,
  type HandDeckState,
} from './reshuffle.js';
export { prepareDeck, toRevealRecord, type DeckCommitment, type RevealRecord, type RevealReshuffle } from './reveal.js';
