import { defineErrors } from '../../lib/errors';

/** Codes of the point of sale. */
export const posErrors = defineErrors({
  insufficient_stock: { status: 400, meaning: 'The change or sale would take stock below zero (the product does not allow negative stock)' },
  already_settled: { status: 400, meaning: 'The transaction or the drawer range is settled already (settled records are immutable)' },
  refund_exceeds_remaining: { status: 400, meaning: 'The refund is more than what is left unrefunded on the sale (or on the part refunded)' },
  gift_card_spent: { status: 409, meaning: 'A gift-card line cannot be refunded beyond what the card still holds: the rest was spent' },
});

export const posFail = posErrors.fail;
