// What follows from a company's autonomy level. Who may act for a company: domain/cards/holder.ts.

/** League follows autonomy (docs/api/companies.md "Directive and engine"): human-directed companies play in HUMAN, the others in MACHINE. */
export const leagueOf = (autonomyLevel: string) => (autonomyLevel === 'HUMAN_DIRECTED' ? 'HUMAN' : 'MACHINE');
