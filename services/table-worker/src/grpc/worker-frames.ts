import type { WorkerFrame } from '@felt/proto';
import type { ConnectionReply } from '../actor/table-command.js';

/** A refusal as the gateway passes it on to the client (`error {code, message, reason?, min?, max?}`). */
export interface Refusal {
  readonly code: string;
  readonly message: string;
  readonly reason?: string;
  readonly min?: number;
  readonly max?: number;
}

export function welcomeFrame(workerId: string): WorkerFrame {
  return { frame: { $case: 'welcome', welcome: { workerId } } };
}

export function ackFrame(requestId: string, tableId: string, atTableSeq: number): WorkerFrame {
  return { frame: { $case: 'ack', ack: { requestId, tableId, atTableSeq } } };
}

export function errorFrame(requestId: string, tableId: string, refusal: Refusal): WorkerFrame {
  return {
    frame: {
      $case: 'error',
      error: {
        requestId,
        tableId,
        code: refusal.code,
        message: refusal.message,
        ...(refusal.reason !== undefined ? { reason: refusal.reason } : {}),
        ...(refusal.min !== undefined ? { min: refusal.min } : {}),
        ...(refusal.max !== undefined ? { max: refusal.max } : {}),
      },
    },
  };
}

export function notOwnerFrame(requestId: string, tableId: string, owner: { id: string; addr: string }): WorkerFrame {
  return {
    frame: {
      $case: 'notOwner',
      notOwner: { requestId, tableId, ownerWorkerId: owner.id, ownerAddr: owner.addr },
    },
  };
}

export function replyFrame(requestId: string, tableId: string, tableSeq: number, reply: ConnectionReply): WorkerFrame {
  return {
    frame: {
      $case: 'reply',
      reply: {
        requestId,
        connectionId: reply.connectionId,
        tableId,
        tableSeq,
        messageJson: Buffer.from(JSON.stringify(reply.message)),
      },
    },
  };
}
