import { defineErrors } from '../../lib/errors';

export const haulErrors = defineErrors({
  lift_capacity_full: {
    status: 409,
    meaning: "The day has no lift left: the location's daily lift capacity (slip settings `dailyLiftCapacity`) is taken by other scheduled services",
  },
  haul_not_due: {
    status: 409,
    meaning: 'A haul service cannot start before its scheduled day at the location (its calendar) unless the staff send `{"early": true}`',
  },
  haul_photo_not_accepted: { status: 400, meaning: 'A photo is not a JPEG, PNG, WebP or HEIC image by its content, or is larger than 10 MB' },
  haul_photo_limit: { status: 409, meaning: 'The service has the most photos it can keep (50)' },
});
