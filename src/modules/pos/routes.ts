import { z } from '@hono/zod-openapi';
import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Point of sale'];
const connect = ['Point of sale: payments'];
const LOC = '`locationId` must be a location of the caller (404 otherwise). Writes need the `pos` permission (admins and managers have it).';
const Success = z.object({ success: z.boolean() }).passthrough();
const ITEMS = `Every line of \`items\` answers each field of PosTransactionLine (\`itemId\`, \`variantId\`, \`taxRate\`, prices, tax, total).
A line recorded without a catalog product (imported history) answers \`itemId\` and \`variantId\` null, its share of the transaction's tax
(by subtotal) and the rate that tax makes.`;

export const listItems = route({
  method: 'get',
  path: '/pos/inventory',
  operationId: 'listPosItems',
  tags,
  summary: "The location's products with variants, stock and folders",
  query: s.LocationQuery,
  ok: s.PosItemList,
  errors: [404],
  description: `Each variant shows the location's stock (\`quantity\`) and each till's own (\`tills\`). Paginated with \`limit\`/\`offset\`. ${LOC}`,
});

export const createItem = route({
  method: 'post',
  path: '/pos/inventory',
  operationId: 'createPosItem',
  tags,
  summary: 'Create a product (variants, category, tax rate, image, tags)',
  body: s.CreateItemBody,
  ok: s.PosItem,
  status: 201,
  errors: [403, 404],
  description: `\`variants\` each have a name, a \`price\` in dollars per unit (to a tenth of a cent: up to three decimals, so fuel at 5.899 a gallon is kept as it is; a sale line is price × quantity rounded to the cent) and an initial \`quantity\`; without variants one default variant is made at \`price\`. \`taxRate\` is a percentage. A product is sold below zero stock only with \`allowNegativeStock\`. A product with category or tag \`fuel\`/\`gas\` is the location's fuel (GET /pos/gas-price). ${LOC}`,
});

export const updateItem = route({
  method: 'put',
  path: '/pos/inventory',
  operationId: 'updatePosItem',
  tags,
  summary: 'Change a product; `variants` replaces the variant list',
  body: s.UpdateItemBody,
  ok: s.PosItem,
  errors: [403, 404],
  description: `Variants with a \`variantId\` are updated (stock is changed with PATCH, not here), new ones are created with their \`quantity\`, and variants left out are retired. An unknown item answers 404. ${LOC}`,
});

export const changeStock = route({
  method: 'patch',
  path: '/pos/inventory',
  operationId: 'changePosStock',
  tags,
  summary: "Apply a signed change to a variant's stock",
  body: s.StockChangeBody,
  ok: s.StockOut,
  errors: [403, 404],
  description: `\`quantity\` is a change (negative takes stock out), applied atomically in SQL (\`quantity = quantity + change\`, never read-modify-write). A change that would take the stock below zero answers 400 \`insufficient_stock\` unless the product allows negative stock. Unknown item or variant: 404. ${LOC}`,
});

export const deleteItem = route({
  method: 'delete',
  path: '/pos/inventory',
  operationId: 'deletePosItem',
  tags,
  summary: 'Delete a product',
  body: s.DeleteItemBody,
  ok: Success,
  errors: [403, 404],
  description: `The product leaves the catalog and its folders; past transactions keep their lines. ${LOC}`,
});

export const gasPrice = route({
  method: 'get',
  path: '/pos/gas-price',
  operationId: 'getPosGasPrice',
  tags,
  summary: "The location's fuel price",
  query: s.GasQuery,
  ok: s.GasPrice,
  errors: [404],
  description: `The first product of the location with category or tag \`fuel\` or \`gas\`: its first variant's price per unit (dollars, to a tenth of a cent: 5.899), unit (default gallon) and tax rate. 404 when the location sells no fuel. ${LOC}`,
});

export const changeTillStock = route({
  method: 'patch',
  path: '/pos/inventory/till',
  operationId: 'changePosTillStock',
  tags,
  summary: "Apply a signed change to a till's own stock of a variant",
  body: s.TillStockChangeBody,
  ok: s.StockOut,
  errors: [403, 404],
  description: `Like PATCH /pos/inventory for the stock kept at one till (created at the first change). A sale that names the till takes stock from it when it stocks the variant, otherwise from the location. ${LOC}`,
});

export const listFolders = route({
  method: 'get',
  path: '/pos/folders',
  operationId: 'listPosFolders',
  tags,
  summary: "The location's folders in their order",
  query: s.FolderQuery,
  ok: s.FolderList,
  errors: [404],
  description: `With \`tillId\`, only that till's folders. ${LOC}`,
});

export const createFolder = route({
  method: 'post',
  path: '/pos/folders',
  operationId: 'createPosFolder',
  tags,
  summary: 'Create a folder (colour, till, products)',
  body: s.CreateFolderBody,
  ok: s.Folder,
  status: 201,
  errors: [403, 404],
  description: `New folders go last in the order. \`itemIds\` links products of the location (400 for unknown ones). ${LOC}`,
});

export const updateFolder = route({
  method: 'put',
  path: '/pos/folders',
  operationId: 'updatePosFolder',
  tags,
  summary: 'Rename, recolour, favourite a folder or set its products',
  body: s.UpdateFolderBody,
  ok: s.Folder,
  errors: [403, 404],
  description: `\`itemIds\` replaces the folder's products. Unknown folder: 404. ${LOC}`,
});

export const deleteFolder = route({
  method: 'delete',
  path: '/pos/folders',
  operationId: 'deletePosFolder',
  tags,
  summary: 'Delete a folder (its products lose the link)',
  body: s.DeleteFolderBody,
  ok: Success,
  errors: [403, 404],
  description: `The products stay in the catalog; the answer lists the ones unlinked. ${LOC}`,
});

export const reorderFolders = route({
  method: 'put',
  path: '/pos/folders/reorder',
  operationId: 'reorderPosFolders',
  tags,
  summary: 'Set the order of folders',
  body: s.ReorderBody,
  ok: s.FolderList,
  errors: [403, 404],
  description: `\`folderOrder\` lists folder ids of the location in their new order (400 for an unknown or repeated id); folders left out keep their position. ${LOC}`,
});

export const duplicateFolders = route({
  method: 'post',
  path: '/pos/folders/duplicate',
  operationId: 'duplicatePosFolders',
  tags,
  summary: "Copy one till's folders to another till",
  body: s.DuplicateBody,
  ok: s.FolderList.extend({ sourceTillId: z.string(), targetTillId: z.string() }),
  errors: [403, 404],
  description: `Copies each folder of \`sourceTillId\` (name, colour, favourite, products) to \`targetTillId\`, after the target's folders. 404 when the source till has no folders. ${LOC}`,
});

export const listTransactions = route({
  method: 'get',
  path: '/pos/transaction',
  operationId: 'listPosTransactions',
  tags,
  summary: "The location's transactions, newest first",
  query: s.TransactionQuery,
  ok: s.TransactionList,
  errors: [404],
  description: `With \`tillId\`, one till's. Paginated with \`limit\`/\`offset\`. Amounts in dollars. ${ITEMS} ${LOC}`,
});

export const createTransaction = route({
  method: 'post',
  path: '/pos/transaction',
  operationId: 'createPosTransaction',
  tags,
  summary: 'Ring up a sale (priced on the server) or record a drawer movement',
  body: s.CreateTransactionBody,
  ok: s.TransactionOut,
  status: 201,
  errors: [402, 403, 404],
  idempotent: true,
  description: `**Price**: every line is priced from the catalog: variant price x quantity; the order discount (\`discountPercentage\` of each line, or \`discountAmount\` dollars shared by line value, not both) comes off before tax; each line is taxed at its product's rate, rounded per line. Client prices are never read.

**Stock** is taken in the same D1 batch as the sale (from the till's stock when \`tillId\` stocks the variant, else the location's): a sale that would take it below zero answers 400 \`insufficient_stock\`, also when two sales race for the last unit.

**Payment** (\`paymentType\`): \`cash\` is recorded; \`card\` charges \`paymentMethodId\` (saved card or test token) through the payments adapter (402 when declined, nothing written); \`terminal\` records the \`paymentIntentId\` the card reader completed (it must have succeeded for exactly the total); \`account\` charges the renter \`accountId\` (the sale is owed in the ledger, nothing is paid). Paid sales fire \`payment.completed\` with their ledger entries. With \`settleBooking\` and \`rentalId\` the payment goes to that booking's balance (a payment entry on the rental, never more than its balance due) instead of booking new revenue.

**Drawer movements**: \`opening_float\`, \`paid_in\` and \`paid_out\` take \`amount\` (dollars) and no items; they count in the drawer's expected cash. ${LOC}`,
});

export const getTransaction = route({
  method: 'get',
  path: '/pos/transaction/{transactionId}',
  operationId: 'getPosTransaction',
  tags,
  summary: 'One transaction',
  params: s.TransactionParams,
  ok: s.TransactionOut,
  errors: [404],
  description: `Another operator's transaction answers 404. ${ITEMS}`,
});

export const transactionsOfRental = route({
  method: 'get',
  path: '/pos/transactions/rental/{rentalId}',
  operationId: 'listPosTransactionsOfRental',
  tags,
  summary: 'The POS transactions of a booking',
  params: s.RentalParams,
  ok: s.RentalTransactions,
  errors: [404],
  description: 'Transactions rung up with `rentalId` (including those that settled its balance). An unknown or foreign rental answers 404.',
});

export const refund = route({
  method: 'post',
  path: '/pos/transaction/refund',
  operationId: 'refundPosTransaction',
  tags,
  summary: 'Refund a sale in full or in part',
  body: s.RefundBody,
  ok: s.RefundOut,
  errors: [403, 404],
  idempotent: true,
  description: `\`refundType\` \`full\` refunds what is left; \`partial\` needs \`amount\` (dollars) and may name the \`items\` returned to stock (a full refund restocks every unit not returned yet). The amount is reserved on the sale with one conditional SQL update, so racing refunds can never together pass the sale's total: more than what is left answers 400 \`refund_exceeds_remaining\`. A settled sale answers 400 \`already_settled\`. The money goes back the way it came (card and terminal through the provider, cash from the drawer; an account sale gets a credit); each refund is its own row and ledger entry linked to the sale and fires \`payment.refunded\`. A provider refusal answers 400 \`payment_provider_error\` and the reservation is given back.`,
});

export const settle = route({
  method: 'put',
  path: '/pos/transaction/settle',
  operationId: 'settlePosTransaction',
  tags,
  summary: 'Settle one transaction',
  query: s.SettleQuery,
  ok: s.TransactionOut,
  errors: [403, 404],
  description:
    'Marks the transaction settled (closed: no refunds after). A settled one answers 400 `already_settled`; a missing `transactionId` 400; an unknown one 404.',
});

export const settleRange = route({
  method: 'put',
  path: '/pos/transaction/settle-range',
  operationId: 'settlePosDrawerRange',
  tags,
  summary: 'Close a cash drawer for a range (numbered Z report)',
  body: s.SettleRangeBody,
  ok: s.ZReport,
  errors: [403, 404],
  description: `Settles the unsettled transactions and refunds of the range (of \`drawerId\`, or of every drawer of the location). The server computes **expected cash = opening float + cash sales + paid in - cash refunds - paid out** from them; \`countedCash\` (or the sum of \`cashBreakdown\`: denomination in dollars -> count; 400 when both are sent and differ) is stored with **difference = counted - expected**. When the client sends its own \`expectedCash\` or \`difference\`, the server's figures win and the client's are kept beside them. The range defaults to the end of the drawer's last report up to now (\`startDate\`/\`endDate\`: a date in the location's zone or an instant; never in the future). The report is numbered per location (\`zReportNumber\`) and immutable: a range overlapping a settled one of the same drawer answers 400 \`already_settled\`. ${LOC}`,
});

export const createPayment = route({
  method: 'post',
  path: '/pos/create_payment',
  operationId: 'createPosTerminalPayment',
  tags: connect,
  summary: 'A card-present payment intent for the reader (cents)',
  body: s.CreatePaymentBody,
  ok: s.IntentOut,
  errors: [403],
  idempotent: true,
  description: `\`amount\` is a positive integer of cents (400 otherwise). The reader collects the card with the client secret; record the sale with POST /pos/transaction \`paymentType: "terminal"\` and the \`paymentIntentId\`.`,
});

export const accountLink = route({
  method: 'post',
  path: '/pos/account_link',
  operationId: 'createPosAccountLink',
  tags: connect,
  summary: "Onboarding link of the operator's connected account",
  body: s.AccountRefBody,
  ok: s.LinkOut,
  errors: [403, 404],
  description: `\`account\` must be a connected account of the operator (created with POST /pos/account, or a location's \`connectId\`; 404 otherwise). \`stripeRegion\` US or CA picks the provider's platform account. Needs the \`payments\` permission.`,
});

export const chargeCustomer = route({
  method: 'post',
  path: '/pos/charge_customer',
  operationId: 'chargePosCustomer',
  tags: connect,
  summary: 'Charge a saved card off-session now (cents)',
  body: s.ChargeCustomerBody,
  ok: s.IntentOut,
  errors: [402, 403, 404],
  idempotent: true,
  description: `\`amount\` and \`fee_amount\` are integer cents; with \`connect_id\` (a connected account of the operator) the charge is a destination charge with \`fee_amount\` as the platform fee. A declined card answers 402. Fires \`payment.completed\`.`,
});

export const createAccount = route({
  method: 'post',
  path: '/pos/account',
  operationId: 'createPosConnectedAccount',
  tags: connect,
  summary: 'Create a connected (merchant) account',
  body: s.AccountBody,
  ok: s.AccountOut,
  errors: [403],
  description: `\`country\` (ISO 3166-1 alpha-2, default the region) and \`stripeRegion\` (US or CA). The account belongs to the operator; continue with POST /pos/account_link. Needs the \`payments\` permission.`,
});

export const accountSession = route({
  method: 'post',
  path: '/pos/account_session',
  operationId: 'createPosAccountSession',
  tags: connect,
  summary: 'Client secret for the embedded account components',
  body: s.AccountRefBody,
  ok: s.SessionOut,
  errors: [403, 404],
  description: '`account` must be a connected account of the operator (404 otherwise).',
});

export const dashboardLink = route({
  method: 'post',
  path: '/pos/dashboard_link',
  operationId: 'createPosDashboardLink',
  tags: connect,
  summary: "Login link to the connected account's dashboard",
  body: s.AccountRefBody,
  ok: s.LinkOut,
  errors: [403, 404],
  description: '`account` must be a connected account of the operator (404 otherwise).',
});

export const connectionToken = route({
  method: 'post',
  path: '/pos/connection_token',
  operationId: 'createPosConnectionToken',
  tags: connect,
  summary: 'Card-reader connection token',
  ok: s.TokenOut,
  errors: [403],
  description: 'For the reader SDK. Offline the simulator issues a token of the same shape.',
});

export const createPaymentIntent = route({
  method: 'post',
  path: '/pos/create_payment_intent',
  operationId: 'createPosPaymentIntent',
  tags: connect,
  summary: 'A payment intent, optionally on a connected account with a platform fee',
  body: s.CreatePaymentIntentBody,
  ok: s.IntentOut,
  errors: [403, 404],
  idempotent: true,
  description: `\`amount\` and \`fee_in_cents\` are integer cents (amount positive, 400 otherwise). With \`connected_account_id\` (a connected account of the operator) the intent is a destination charge (\`use_destination_charges\`, default true) or a direct charge on that account, with \`fee_in_cents\` as the application fee.`,
});
