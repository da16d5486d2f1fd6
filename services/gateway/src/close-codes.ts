import { CloseCode } from '@felt/protocol';

/** The close codes this gateway sends: the protocol's (docs/protocol.md, @felt/protocol CloseCode). */
export const GatewayCloseCode = CloseCode;
export type GatewayCloseCode = CloseCode;
