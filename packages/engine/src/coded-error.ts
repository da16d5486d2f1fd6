/**
 * The base of Felt's typed errors: a stable, machine-readable `code` that an edge (HTTP, gRPC, the
 * WebSocket gateway) maps to a status and a client-facing error, plus whatever structured fields the
 * subclass adds. Messages are for engineers and logs.
 *
 * Each subclass names itself with a string literal (`override readonly name = 'ActionError'`) rather
 * than `new.target.name`, because a minifier renames classes and the name must survive the web build.
 * It lives in the engine, the one package with no dependencies, so that the packages above it share it.
 */
export abstract class CodedError<C extends string = string> extends Error {
  abstract override readonly name: string;

  constructor(
    readonly code: C,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
