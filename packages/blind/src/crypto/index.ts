/**
 * The crypto core of engine-blind dealing: ElGamal on ristretto255, per-hand keys with Schnorr proofs
 * of knowledge, a cut-and-choose verifiable shuffle, and decryption shares with Chaum–Pedersen proofs.
 * Every public value is lowercase hex; secrets stay bigints inside one process.
 */
export { BlindError, type BlindErrorCode } from './errors.js';
export { IDENTITY_HEX, type Hex, type Rng } from './group.js';
export { cardIndex, cardPoint, initialDeck, type Ciphertext } from './cards.js';
export { generateKey, jointKey, proveKey, verifyKey, type KeyProof, type PlayerKey } from './keys.js';
export {
  DEFAULT_LAMBDA,
  MAX_LAMBDA,
  reencrypt,
  shuffleDeck,
  verifyShuffle,
  type ShuffleOpening,
  type ShufflePermOpening,
  type ShuffleProof,
  type ShuffleResult,
  type ShuffleSeedOpening,
} from './shuffle.js';
export { decryptionShare, openCard, ownShare, verifyShare, type DecryptionShare } from './shares.js';
