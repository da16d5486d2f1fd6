import type { HandCompletedJob } from '@felt/platform';
import type { HandStore, WriteResult } from './hand-store.js';

/** The slice of the Prisma client this store uses (kept narrow so tests can read the types). */
export interface HandsClient {
  hand: {
    createMany(args: {
      data: {
        handId: string;
        roomId: string;
        handNo?: number | null;
        game: string;
        limit: string;
        blinds: NonNullable<unknown>;
        startedAt: Date;
        endedAt: Date;
        payload: NonNullable<unknown>;
      }[];
      skipDuplicates: boolean;
    }): Promise<{ count: number }>;
  };
}

/** INSERT ... ON CONFLICT (hand_id) DO NOTHING: the unique hand id makes a replay a no-op. */
export class PrismaHandStore implements HandStore {
  constructor(private readonly prisma: HandsClient) {}

  async write(hand: HandCompletedJob): Promise<WriteResult> {
    const { count } = await this.prisma.hand.createMany({
      data: [
        {
          handId: hand.hand_id,
          roomId: hand.room_id,
          handNo: hand.hand_no ?? null,
          game: hand.game,
          limit: hand.limit,
          blinds: hand.blinds ?? {},
          startedAt: new Date(hand.started_at),
          endedAt: new Date(hand.ended_at),
          payload: hand.payload ?? {},
        },
      ],
      skipDuplicates: true,
    });
    return count === 1 ? 'written' : 'duplicate';
  }
}
