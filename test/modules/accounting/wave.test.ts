/** The real Wave adapter over fetch, against a stubbed network: GraphQL requests and the mapping of a balanced journal onto Wave's anchored transaction. */
import { describe, it, expect, afterEach } from 'vitest';
import { WaveAccounting } from '../../../src/adapters/accounting';
import { fakeHosts } from '../../outbound';

let restore = () => {};
afterEach(() => restore());

describe('Wave adapter', () => {
  it('posts a journal as a money transaction anchored on the bank account, line items by normal balance', async () => {
    const bodies: any[] = [];
    restore = fakeHosts(['gql.waveapps.com'], async (input, init) => {
      const req = new Request(input, init);
      expect(req.url).toBe('https://gql.waveapps.com/graphql/public');
      expect(req.headers.get('authorization')).toBe('Bearer wave-token');
      const body = (await req.json()) as any;
      bodies.push(body);
      if (body.query.includes('accounts(')) {
        const node = (id: string, normal: string, subtype: string) => ({
          node: { id, name: id, type: { value: 'X', normalBalanceType: normal }, subtype: { value: subtype } },
        });
        return Response.json({
          data: {
            business: {
              accounts: {
                edges: [
                  node('bank', 'DEBIT', 'CASH_AND_BANK'),
                  node('ar', 'DEBIT', 'RECEIVABLE'),
                  node('sales', 'CREDIT', 'INCOME'),
                  node('tax', 'CREDIT', 'SALES_TAX'),
                ],
              },
            },
          },
        });
      }
      return Response.json({ data: { moneyTransactionCreate: { didSucceed: true, inputErrors: [], transaction: { id: 'txn_wave_1' } } } });
    });
    const wave = new WaveAccounting('client', 'secret');
    const res = await wave.postJournal('wave-token', 'biz_1', {
      externalId: 'berth:cus:loc:2027-01-01',
      date: '2027-01-01',
      description: 'Daily journal',
      currency: 'usd',
      bankAccountId: 'bank',
      lines: [
        { accountId: 'bank', debit: 10700, credit: 0, description: 'bank' },
        { accountId: 'ar', debit: 0, credit: 0, description: 'ar' },
        { accountId: 'sales', debit: 0, credit: 10000, description: 'sales' },
        { accountId: 'tax', debit: 0, credit: 700, description: 'tax' },
      ],
    });
    expect(res).toEqual({ id: 'txn_wave_1' });
    const input = bodies[1].variables.input;
    expect(input).toMatchObject({
      businessId: 'biz_1',
      externalId: 'berth:cus:loc:2027-01-01',
      anchor: { accountId: 'bank', amount: '107.00', direction: 'DEPOSIT' },
    });
    expect(input.lineItems).toEqual(
      expect.arrayContaining([
        { accountId: 'sales', amount: '100.00', balance: 'INCREASE', description: 'sales' },
        { accountId: 'tax', amount: '7.00', balance: 'INCREASE', description: 'tax' },
      ]),
    );
  });
});
