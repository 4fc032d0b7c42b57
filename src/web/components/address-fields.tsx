import { useId } from 'react';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import type { ShippingAddressView } from '#shared/schemas/orders';
import { addressLines } from '#shared/orders/address';
import { FormField, Input, Select } from '#web/components/ui/input';

/** The address inputs' values (what the form holds before the schema checks them). */
export interface AddressFormValues {
  name: string;
  line1: string;
  line2: string;
  city: string;
  state: string;
  postalCode: string;
  country: string;
}

export const EMPTY_ADDRESS: AddressFormValues = { name: '', line1: '', line2: '', city: '', state: '', postalCode: '', country: 'US' };

/** Where we ship (FAQ: mainly the US); the API takes any ISO 3166-1 alpha-2 code. */
const COUNTRIES: Array<[string, string]> = [
  ['US', 'United States'],
  ['CA', 'Canada'],
  ['MX', 'Mexico'],
  ['GB', 'United Kingdom'],
  ['IE', 'Ireland'],
  ['FR', 'France'],
  ['DE', 'Germany'],
  ['ES', 'Spain'],
  ['IT', 'Italy'],
  ['NL', 'Netherlands'],
  ['CH', 'Switzerland'],
  ['AU', 'Australia'],
  ['JP', 'Japan'],
  ['SG', 'Singapore'],
  ['AE', 'United Arab Emirates'],
];

type AddressErrors = FieldErrors<Record<keyof AddressFormValues, string>> | undefined;

/**
 * The delivery address inputs (issue 35), registered under `shippingAddress.*` of the caller's form:
 * one id per field (useId), the `shipping` autofill section with the standard autocomplete tokens.
 */
export function AddressFields({
  register,
  errors,
  disabled,
}: {
  /** the order form's or the address form's register: both hold the fields under `shippingAddress` */
  register: UseFormRegister<any>;
  errors: AddressErrors;
  disabled?: boolean;
}) {
  const ids = {
    name: useId(),
    line1: useId(),
    line2: useId(),
    city: useId(),
    state: useId(),
    postalCode: useId(),
    country: useId(),
  };
  const field = (key: keyof AddressFormValues, hint?: boolean) => ({
    id: ids[key],
    disabled,
    'aria-invalid': !!errors?.[key],
    'aria-describedby': errors?.[key] ? `${ids[key]}-error` : hint ? `${ids[key]}-hint` : undefined,
    ...register(`shippingAddress.${key}`),
  });
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
      <FormField id={ids.name} label="Recipient name" required error={errors?.name?.message} className="sm:col-span-2">
        <Input autoComplete="shipping name" maxLength={120} {...field('name')} />
      </FormField>
      <FormField id={ids.line1} label="Street address" required error={errors?.line1?.message} className="sm:col-span-2">
        <Input autoComplete="shipping address-line1" maxLength={200} {...field('line1')} />
      </FormField>
      <FormField id={ids.line2} label="Apartment, suite, etc. (optional)" error={errors?.line2?.message} className="sm:col-span-2">
        <Input autoComplete="shipping address-line2" maxLength={200} {...field('line2')} />
      </FormField>
      <FormField id={ids.city} label="City" required error={errors?.city?.message}>
        <Input autoComplete="shipping address-level2" maxLength={100} {...field('city')} />
      </FormField>
      <FormField id={ids.state} label="State" required error={errors?.state?.message} hint="For the US, the 2-letter code (NY)">
        <Input autoComplete="shipping address-level1" maxLength={100} {...field('state', true)} />
      </FormField>
      <FormField id={ids.postalCode} label="ZIP / postal code" required error={errors?.postalCode?.message}>
        <Input autoComplete="shipping postal-code" maxLength={20} {...field('postalCode')} />
      </FormField>
      <FormField id={ids.country} label="Country" required error={errors?.country?.message}>
        <Select autoComplete="shipping country" {...field('country')}>
          {COUNTRIES.map(([code, name]) => (
            <option key={code} value={code}>
              {name}
            </option>
          ))}
        </Select>
      </FormField>
    </div>
  );
}

/** The address as lines, for confirmations and the order page. */
export function AddressLines({ address, testId }: { address: ShippingAddressView; testId?: string }) {
  return (
    <address className="not-italic leading-relaxed" data-testid={testId}>
      {addressLines(address).map((line, i) => (
        <span key={i} className="block">
          {line}
        </span>
      ))}
    </address>
  );
}

/** The form's address values for editing (a stored address, or empty). */
export function toAddressForm(a: ShippingAddressView | null): AddressFormValues {
  return a ? { name: a.name, line1: a.line1, line2: a.line2 ?? '', city: a.city, state: a.state, postalCode: a.postalCode, country: a.country } : EMPTY_ADDRESS;
}
