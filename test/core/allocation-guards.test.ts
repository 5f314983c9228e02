import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';

const ins = (id: string, f: { asset?: string | null; item?: string; s: number; e: number; seats?: number; cap?: number | null; expires?: number | null }) =>
  env.DB.prepare(
    `INSERT INTO allocations (id, customer_id, item_id, asset_id, kind, source_id, start, "end", blocked_start, blocked_end, seats, capacity, active, expires_at, created_at)
     VALUES (?, 'cus_t', ?, ?, 'booking', ?, ?, ?, ?, ?, ?, ?, 1, ?, '2026-01-01')`,
  ).bind(id, f.item ?? 'itm_guard', f.asset ?? null, id, f.s, f.e, f.s, f.e, f.seats ?? 1, f.cap ?? null, f.expires ?? null);

describe('allocation triggers (D1 backstop)', () => {
  it('refuse an overlapping allocation of the same asset', async () => {
    await ins('a1', { asset: 'ast_g1', s: 1000, e: 2000 }).run();
    await expect(ins('a2', { asset: 'ast_g1', s: 1500, e: 2500 }).run()).rejects.toThrow(/allocation_conflict/);
    await ins('a3', { asset: 'ast_g1', s: 2000, e: 3000 }).run();
    await ins('a4', { asset: 'ast_g2', s: 1500, e: 2500 }).run();
  });

  it('ignore expired holds', async () => {
    await ins('h1', { asset: 'ast_g3', s: 1000, e: 2000, expires: 1 }).run();
    await ins('h2', { asset: 'ast_g3', s: 1000, e: 2000 }).run();
  });

  it('refuse seats beyond capacity of a departure', async () => {
    await ins('t1', { item: 'itm_tour', s: 5000, e: 6000, seats: 2, cap: 3 }).run();
    await expect(ins('t2', { item: 'itm_tour', s: 5000, e: 6000, seats: 2, cap: 3 }).run()).rejects.toThrow(/allocation_conflict/);
    await ins('t3', { item: 'itm_tour', s: 5000, e: 6000, seats: 1, cap: 3 }).run();
  });
});
