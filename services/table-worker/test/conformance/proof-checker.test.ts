// The proof checker contract, run against the in-process checker and the thread pool.
import { InlineProofChecker } from '../../src/adapters/inline-proof-checker.js';
import { ThreadProofChecker } from '../../src/adapters/thread-proof-checker.js';
import { describeProofChecker } from './describe-proof-checker.js';

describeProofChecker('inline', () => new InlineProofChecker(), { offThread: false });
describeProofChecker('threads', () => new ThreadProofChecker({ threads: 2 }), { offThread: true });
