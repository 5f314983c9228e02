import { defineModule } from '../../lib/module';
import router from './index';
import { promoErrors } from './errors';
import { releaseBookingUse } from './use';
import { giftCardSale, promoCodeSale } from './sale-extension';

export default defineModule({
  name: 'promo-codes',
  router,
  errors: promoErrors.table,
  hooks: { 'capacity.released': releaseBookingUse },
  // A booking's promo code (an order discount) and gift card (pays part of what is due now).
  sale: [promoCodeSale, giftCardSale],
  tags: [
    {
      name: 'Promo codes and gift cards',
      description: `Promo codes (percent or amount off, usage limits, scope, affiliate commission) and gift cards (a balance ledger), one code per operator case-insensitively. Uses are single conditional SQL changes, so parallel uses never pass a limit or a balance. \`POST /coreBooking/book\` honours codes (\`discountDetails.promoCode\`) through the same count and gives the use back when the booking is cancelled. Gift cards are sold online through public endpoints and the payment provider's webhook.`,
    },
  ],
});
