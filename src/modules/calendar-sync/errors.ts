import { defineErrors } from '../../lib/errors';

/** Codes of calendar sync. */
export const calendarErrors = defineErrors({
  calendar_not_connected: { status: 400, meaning: 'The user has not connected a calendar (GET /integrations/calendar/connect first)' },
  calendar_reauthorization_required: { status: 400, meaning: 'The calendar provider refused the stored credentials; connect again' },
  invalid_oauth_state: { status: 400, meaning: 'The OAuth `state` is missing, forged or expired; start the connection again' },
});

export const calendarFail = calendarErrors.fail;
