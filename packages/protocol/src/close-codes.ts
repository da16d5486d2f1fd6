/**
 * WebSocket close codes the gateway uses. 1xxx are RFC 6455 codes; 4xxx are Felt's own.
 */
export const CloseCode = {
  /** The gateway is shutting down; reconnect (to any gateway) and resync. */
  GOING_AWAY: 1001,
  /** A frame exceeded the per-socket payload limit (GATEWAY_MAX_PAYLOAD bytes). */
  MESSAGE_TOO_BIG: 1009,
  /** Unexpected server failure. */
  INTERNAL_ERROR: 1011,
  /** The gateway holds as many sockets as it accepts (GATEWAY_MAX_SOCKETS): reconnect to another one. */
  TRY_AGAIN_LATER: 1013,
  /** The session was revoked or expired while the socket was open. */
  SESSION_ENDED: 4001,
  /** The client kept sending after being rate limited. */
  RATE_LIMIT_ABUSE: 4008,
  /** The client read too slowly: its outgoing buffer passed the backpressure limit. Reconnect and resync. */
  SLOW_CONSUMER: 4013,
  /**
   * Too many sockets open at this gateway for this account (GATEWAY_MAX_SOCKETS_PER_USER) or from this
   * client address (GATEWAY_MAX_SOCKETS_PER_ADDRESS); the reason says which. Close another socket
   * before reconnecting.
   */
  TOO_MANY_SOCKETS: 4029,
} as const;
export type CloseCode = (typeof CloseCode)[keyof typeof CloseCode];
