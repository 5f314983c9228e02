/** The skills of staff members (users' `userSkills`): what public availability, assignments and the manifest speak of. */
export const SKILLS = ['coach', 'captain', 'trainer', 'operations'] as const;
export type Skill = (typeof SKILLS)[number];
