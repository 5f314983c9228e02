// The slip contracts module's face (the logic is in templates.ts, variables.ts, pdf.ts, contracts.ts,
// signing.ts, queries.ts, views.ts; its reservation hook is listed in module.ts). Other modules use it for:
// - the tenant portal's contract: contractsOfReservation, contractPdf, signContract (with `{ token }`)
// - the seed: createTemplate, generateContract, sendContract
export { createTemplate } from './templates';
export { generateContract } from './contracts';
export { sendContract, signContract } from './signing';
export { contractPdf, contractsOfReservation } from './queries';
