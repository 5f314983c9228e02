import { defineModule } from '../../lib/module';
import router from './index';
import { walletErrors } from './errors';

/** Wallet passes of bookings and check-in by their QR code (routes under the Public and Bookings tags). */
export default defineModule({ name: 'wallet-passes', router, errors: walletErrors.table });
