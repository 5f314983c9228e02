import { defineErrors } from '../../lib/errors';

export const sandboxErrors = defineErrors({
  invalid_time: { status: 400, meaning: "A test clock time before the clock's current time, or more than two years away" },
  clock_advancing: { status: 409, meaning: 'The test clock is still advancing; poll it until it is ready' },
});
