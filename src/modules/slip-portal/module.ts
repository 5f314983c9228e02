import { defineModule } from '../../lib/module';
import router from './index';

export default defineModule({
  name: 'slip-portal',
  router,
  tags: [
    {
      name: 'Slip tenant portal',
      description: `The marina's tenants (renters of slip reservations) sign in with a single-use link e-mailed to them and get a tenant session: their own reservations only (another tenant's answers 404), vessel details, the contract to sign, documents, messages with the marina, saved cards and payments, guest passes and haul services.`,
    },
  ],
});
