/** Names the identity store and the API agree on. */

/** The user pool's immutable custom attribute holding a user's tenant; Cognito puts it in every ID token. */
export const TENANT_ATTRIBUTE = 'custom:tenant_id';
