import { ApiError } from '../../lib/errors.js';

/** 412 `lead_state_changed`: someone moved the lead since the version `If-Match` named; nothing was changed. */
export class LeadStateChangedError extends ApiError {
  constructor(leadId: string, ifMatch: string, version: number) {
    super(
      412,
      'lead_state_changed',
      "The lead's state changed since that version",
      `Lead ${leadId} is at version "${version}" now, not ${ifMatch}; nothing was changed. Read it again and decide.`,
    );
  }
}
