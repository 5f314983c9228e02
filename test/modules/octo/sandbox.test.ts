/**
 * OCTO over a reseller's test key (issue 28): the same private sandbox operator as the channel API,
 * with its OCTO showcase listed first; another reseller's sandbox holds none of its products or
 * bookings, and a sandbox reset wipes its OCTO sales with the operator.
 */
import { describe, it, expect } from 'vitest';
import { api, get } from '../../harness';
import { platform } from '../channel/factories';
import { availabilityId, book, expectOctoError, octo, unitItems } from './factories';
import { tagOf } from '../../../src/seed';
import { octoItemIds } from '../../../src/seed/octo';

const merchantOf = async (key: string): Promise<string> =>
  (await get('/channel/v1/me', { headers: { authorization: `Bearer ${key}` } })).body.channel.merchants[0].merchantId;

describe('OCTO on private reseller sandboxes', () => {
  it("a test key sells its own private operator (showcase first), never another reseller's; a reset wipes its OCTO bookings", async () => {
    const a = await platform();
    const b = await platform();
    const products = await octo('GET', '/products', a.keys.test);
    expect(products.status, products.text).toBe(200);
    expect(products.headers.get('octo-env')).toBe('test');
    const opA = await merchantOf(a.keys.test);
    const opB = await merchantOf(b.keys.test);
    expect(opA).toMatch(/^cus_sbx_/);
    expect(opB).not.toBe(opA);
    const showA = octoItemIds({ tag: tagOf(opA) });
    expect(products.body[0].id).toBe(showA.harborCruise);
    expect(products.body.find((p: any) => p.id === showA.kayak).availabilityType).toBe('OPENING_HOURS');
    const productsB = await octo('GET', '/products', b.keys.test);
    expect(productsB.body[0].id).toBe(octoItemIds({ tag: tagOf(opB) }).harborCruise);
    expect(productsB.body.map((p: any) => p.id)).not.toContain(showA.harborCruise);
    expectOctoError(await octo('GET', `/products/${showA.harborCruise}`, b.keys.test), 'INVALID_PRODUCT_ID');

    const sold = await book(a.keys.test, {
      productId: showA.harborCruise,
      optionId: 'DEFAULT',
      availabilityId: availabilityId(25, '11:00'),
      unitItems: unitItems('adult', 2),
    });
    expect(sold.testMode).toBe(true);
    expectOctoError(await octo('GET', `/bookings/${sold.uuid}`, b.keys.test), 'INVALID_BOOKING_UUID');
    expect((await octo('GET', `/bookings/${sold.uuid}`, a.keys.test)).body.status).toBe('CONFIRMED');

    const reset = await api('POST', '/channel/v1/sandbox/reset', { headers: { authorization: `Bearer ${a.keys.test}` } });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body).toMatchObject({ reseeded: true, merchantId: opA });
    expectOctoError(await octo('GET', `/bookings/${sold.uuid}`, a.keys.test), 'INVALID_BOOKING_UUID');
    const fresh = await merchantOf(a.keys.test);
    expect(fresh).not.toBe(opA);
    expect((await octo('GET', '/products', a.keys.test)).body[0].id).toBe(octoItemIds({ tag: tagOf(fresh) }).harborCruise);
    expect(await merchantOf(b.keys.test)).toBe(opB);
  }, 180_000);
});
