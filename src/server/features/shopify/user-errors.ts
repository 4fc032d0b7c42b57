/**
 * The Storefront cart API's error and warning codes, mapped to the store's user-error codes
 * (spec: "Store user-error code mapping"). Codes not listed pass through unchanged.
 */
const GROUPS: Record<string, string[]> = {
  NOT_SUPPORTED: [
    'ADDRESS_FIELD_CONTAINS_EMOJIS',
    'ADDRESS_FIELD_CONTAINS_HTML_TAGS',
    'ADDRESS_FIELD_CONTAINS_URL',
    'ADDRESS_FIELD_DOES_NOT_MATCH_EXPECTED_PATTERN',
    'PAYMENT_METHOD_NOT_SUPPORTED',
    'ZIP_CODE_NOT_SUPPORTED',
    'PAYMENTS_GIFT_CARDS_UNAVAILABLE',
  ],
  PRESENT: ['ADDRESS_FIELD_IS_REQUIRED', 'MISSING_CUSTOMER_ACCESS_TOKEN', 'MISSING_DISCOUNT_CODE', 'MISSING_NOTE'],
  TOO_LONG: ['ADDRESS_FIELD_IS_TOO_LONG', 'NOTE_TOO_LONG'],
  INVALID: [
    'INVALID_COMPANY_LOCATION',
    'INVALID_DELIVERY_GROUP',
    'INVALID_DELIVERY_OPTION',
    'INVALID_INCREMENT',
    'INVALID_METAFIELDS',
    'INVALID_PAYMENT',
    'INVALID_PAYMENT_EMPTY_CART',
    'VALIDATION_CUSTOM',
    'UNSPECIFIED_ADDRESS_ERROR',
  ],
  LINE_ITEM_NOT_FOUND: ['INVALID_MERCHANDISE_LINE'],
  INVALID_FOR_COUNTRY: ['INVALID_ZIP_CODE_FOR_COUNTRY'],
  INVALID_FOR_COUNTRY_AND_PROVINCE: ['INVALID_ZIP_CODE_FOR_PROVINCE'],
  LESS_THAN: ['LESS_THAN'],
  GREATER_THAN_OR_EQUAL_TO: ['MINIMUM_NOT_MET'],
  NOT_ENOUGH_IN_STOCK: ['MAXIMUM_EXCEEDED', 'MERCHANDISE_NOT_ENOUGH_STOCK', 'MERCHANDISE_OUT_OF_STOCK'],
  INVALID_PROVINCE_IN_COUNTRY: ['PROVINCE_NOT_FOUND'],
};

export const USER_ERROR_CODE_MAP: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(Object.entries(GROUPS).flatMap(([to, froms]) => froms.map((from) => [from, to]))),
);

export function mapUserErrorCode(code: string | null | undefined): string | undefined {
  if (!code) return undefined;
  return USER_ERROR_CODE_MAP[code] ?? code;
}

export interface StoreUserError {
  field?: string[] | null;
  message: string;
  code?: string;
}

export function mapUserErrors(list: Array<{ field?: string[] | null; message: string; code?: string | null }> | null | undefined): StoreUserError[] {
  return (list ?? []).map((e) => ({ ...(e.field !== undefined ? { field: e.field } : {}), message: e.message, code: mapUserErrorCode(e.code) }));
}
