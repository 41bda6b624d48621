import { describe, expect, it } from 'vitest';
import type { ChannelState } from '../../../contract/channels.ts';
import { legacyState, startingState, transition, transitions, type ChannelTrigger } from './state-machine.ts';

const s = (status: ChannelState['status'], reason: string | null = null) => ({ status, reason }) as ChannelState;

const active = s('active');
const qr = s('init', 'qr');
const sync = s('init', 'sync');
const password = s('init', 'wait_for_password');
const initNoReason = s('init');
const unpaid = s('disabled', 'not_enough_money');
const qridle = s('disabled', 'qridle');

describe('channel state machine', () => {
  // At least one case per row of the table, plus the refusals around it.
  const cases: [ChannelTrigger, ChannelState, ChannelState][] = [
    ['qr_connect_started', active, qr],
    ['qr_connect_started', qridle, qr],
    ['credentials_accepted', s('disabled', 'unauthorized'), active],
    ['redirect_issued', active, initNoReason],
    ['redirect_completed', initNoReason, active],
    ['qr_scanned', qr, sync],
    ['qr_scanned_needs_password', qr, password],
    ['qr_scanned_by_foreign_phone', qr, s('disabled', 'foreignphone')],
    ['qr_exhausted', qr, qridle],
    ['history_synced', sync, active],
    ['password_accepted', password, active],
    ['logged_out', active, s('disabled', 'unauthorized')],
    ['logged_out', sync, s('disabled', 'unauthorized')],
    ['blocked', active, s('disabled', 'blocked')],
    ['rejected', initNoReason, s('disabled', 'rejected')],
    ['payment_missed', active, unpaid],
    ['payment_received', unpaid, active],
    ['opened_elsewhere', active, s('disabled', 'openelsewhere')],
    ['session_unreachable', active, initNoReason],
    ['session_restored', initNoReason, active],
    ['deleted', qr, s('disabled')],
  ];

  it.each(cases)('%s: %o → %o', (trigger, from, to) => {
    expect(transition(from, trigger)).toEqual({ ok: true, state: to, changed: true });
  });

  it('has a case above for every row of the table', () => {
    expect(new Set(transitions.map((r) => r.trigger)).size).toBe(transitions.length);
    expect(new Set(cases.map(([trigger]) => trigger))).toEqual(new Set(transitions.map((r) => r.trigger)));
  });

  it.each<[ChannelTrigger, ChannelState]>([
    ['password_accepted', active],
    ['password_accepted', qr],
    ['qr_scanned', active],
    ['qr_scanned', qridle],
    ['qr_exhausted', sync],
    ['history_synced', qr],
    ['redirect_completed', qr],
    ['rejected', active],
    ['payment_received', active],
    ['logged_out', qridle],
    ['blocked', unpaid],
  ])('refuses %s in %o', (trigger, from) => {
    expect(transition(from, trigger)).toEqual({ ok: false, from, trigger });
  });

  it('reports an unchanged state when a trigger leads where the channel already is', () => {
    expect(transition(qr, 'qr_connect_started')).toEqual({ ok: true, state: qr, changed: false });
  });

  it('starts new channels in the state of the connection trigger', () => {
    expect(startingState('qr_connect_started')).toEqual(qr);
    expect(startingState('credentials_accepted')).toEqual(active);
    expect(startingState('redirect_issued')).toEqual(initNoReason);
    expect(() => startingState('qr_scanned')).toThrow();
  });

  it('derives the deprecated state from reason, else status', () => {
    expect(legacyState(active)).toBe('active');
    expect(legacyState(password)).toBe('wait_for_password');
    expect(legacyState(initNoReason)).toBe('init');
  });
});
