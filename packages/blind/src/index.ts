/**
 * @felt/blind: engine-blind dealing (docs/fairness.md, "Engine-blind dealing"). The crypto (ElGamal
 * on ristretto255, shuffle proofs, decryption shares) and one hand's protocol, as the table runs it
 * (`startBlindHand` …) and as a player takes part (`BlindParticipant`).
 */
export * from './crypto/index.js';
export * from './protocol/index.js';
export { runBlindCheck, type BlindCheck, type ShuffleCheck } from './check-task.js';
