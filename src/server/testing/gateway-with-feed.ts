/**
 * A real gateway process for crash tests: the same composition as main.ts (createGateway from the
 * environment, listening on PORT), plus an IPC channel through which the test records events. The
 * embedded database belongs to one process, so the test cannot write to it from outside; this lets a
 * test SIGKILL and restart the gateway on the same data while producing events through the real path.
 */
import { loadConfig } from '../config.ts';
import { recordEvent } from '../core/events/record-event.ts';
import { systemClock } from '../core/ports.ts';
import { createGateway } from '../gateway.ts';

interface RecordRequest {
  record: { accountId: string; name: string; orderingKey: string | null; payload: unknown }[];
  tag: number;
  /** Records every event in one transaction, so that a claim finds them all at once rather than one by one. */
  together?: boolean;
}

const gateway = await createGateway(loadConfig());
const address = await gateway.listen();

process.on('message', (message: RecordRequest) => {
  void (async () => {
    const ids: string[] = [];
    if (message.together) {
      await gateway.store.transaction(async (tx) => {
        for (const event of message.record) ids.push((await recordEvent(tx, systemClock, event)).id);
      });
    } else {
      for (const event of message.record) {
        ids.push((await gateway.store.transaction((tx) => recordEvent(tx, systemClock, event))).id);
      }
    }
    process.send?.({ recorded: ids, tag: message.tag });
  })();
});
process.on('SIGTERM', () => {
  void gateway.stop().then(() => process.exit(0));
});
process.send?.({ ready: address, partnerKey: gateway.partnerKey.value });
