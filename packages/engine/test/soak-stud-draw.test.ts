/**
 * Reference 004's soak for the Stud family and 2-7 Triple Draw (see soak-flop.test.ts): bring-ins and
 * completions, the open-pair big bet, the community card of eight-handed Stud, all-in players drawing,
 * and the discards reshuffled through the fairness derivation.
 */
import { soakGame } from './soak-helpers.js';

soakGame(['stud', 'stud8', 'razz', '27td']);
