import type { Prisma } from '@felt/db';
import type { RoomConfig } from '@felt/protocol';
import { ApiErrorCode, LobbyError } from '../errors.js';
import type { RoomStore } from './room-store.js';

/** What a host may change about the room's chat; a field left out keeps its value. */
export interface ChatChanges {
  readonly enabled?: boolean | undefined;
  readonly spectators?: boolean | undefined;
}

/**
 * The host's chat setting, mid-session: rooms.config's `chat` is rewritten under the room's lock,
 * then a `chat_changed` room event makes the owning table reread the room rows, which takes the new
 * setting at once (services/table-worker, LiveTable.applySeed). Nothing else of the config changes.
 */
export class RoomChatSetting {
  constructor(private readonly store: RoomStore) {}

  async set(userId: string, roomId: string, changes: ChatChanges): Promise<RoomConfig['chat']> {
    const chat = await this.store.transaction(async (tx) => {
      const room = await this.store.lockRoom(tx, { id: roomId });
      if (room.host_id !== userId)
        throw new LobbyError(ApiErrorCode.NOT_HOST, "only the host can change the room's chat");
      const config = this.store.requireConfig(room.config, room.id);
      const next: RoomConfig['chat'] = {
        enabled: changes.enabled ?? config.chat.enabled,
        spectators: changes.spectators ?? config.chat.spectators,
      };
      const stored = JSON.parse(JSON.stringify({ ...config, chat: next })) as Prisma.InputJsonObject;
      await tx.room.update({ where: { id: room.id }, data: { config: stored } });
      return next;
    });
    this.store.emit({ room_id: roomId, type: 'chat_changed' });
    return chat;
  }
}
