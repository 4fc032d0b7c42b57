import { useRef } from 'react';
import { useNavigate } from 'react-router';
import type { CardStyle, CardTypeId, DeliveryOptionId } from '#shared/catalogue';
import { DESIGN_MESSAGES } from '#shared/templates/messages';
import type { CardLookInput } from '#shared/schemas/templates';
import type { ShippingAddressInput } from '#shared/schemas/orders';
import { ApiError, errorMessage, fieldErrors } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { useSaveDesignerProfile, useSubmitDesign } from './api';
import { toCustomerProfile, type DesignValues } from './design-parts';

/** Server field names of PUT /api/profile and the submit call, mapped onto the design form's fields. */
function formErrors(err: unknown): Partial<Record<keyof DesignValues, string>> {
  const out: Partial<Record<keyof DesignValues, string>> = {};
  for (const [k, v] of Object.entries(fieldErrors(err))) {
    const key = k.replace(/^customerProfile\./, '') as keyof DesignValues;
    out[key] = v;
  }
  return out;
}

/**
 * Saves the design's details to the profile (so the card's QR code has a profile to open),
 * then submits the design for review with a client token (a retried submit is never doubled),
 * toasts and goes to /order-success?orderId=... With `orderId` the design is the existing order's;
 * without it the order is new and comes only from the designer's checkout (issue 35).
 */
export function useDesignSubmit() {
  const navigate = useNavigate();
  const saveProfile = useSaveDesignerProfile();
  const submit = useSubmitDesign();
  const token = useRef<string>(typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `t${Date.now()}${Math.random().toString(36).slice(2)}`);

  async function saveDetails(values: DesignValues, templateId: number, cardType: CardTypeId) {
    const cp = toCustomerProfile(values);
    return saveProfile.mutateAsync({
      fullName: cp.fullName,
      jobTitle: cp.jobTitle ?? null,
      email: cp.email,
      phoneNumber: cp.phoneNumber,
      address: cp.address ?? null,
      companyName: cp.companyName ?? null,
      website: cp.website ?? '',
      linkedinUrl: cp.linkedinUrl ?? '',
      templateId,
      cardType,
    });
  }

  async function run(
    values: DesignValues,
    opts: {
      templateId: number;
      cardType: CardTypeId;
      quantity?: number;
      deliveryOption?: DeliveryOptionId;
      cardStyle?: CardStyle;
      skipProfileSave?: boolean;
      look?: CardLookInput;
      /** the design of this order of the caller (issue 35): attached to it, no new order */
      orderId?: number;
      /** a new order from the checkout: where the cards go */
      shippingAddress?: ShippingAddressInput;
      /** the design's own logo (uploaded in the designer, issue 37); else the server takes the profile's */
      logoUrl?: string;
    },
    onFieldErrors: (e: Partial<Record<keyof DesignValues, string>>) => void,
  ): Promise<boolean> {
    try {
      if (!opts.skipProfileSave) await saveDetails(values, opts.templateId, opts.cardType);
      const res = await submit.mutateAsync({
        templateId: opts.templateId,
        cardType: opts.cardType,
        customerProfile: { ...toCustomerProfile(values), ...(opts.logoUrl ? { logoUrl: opts.logoUrl } : {}) },
        ...(opts.look ? { look: opts.look } : {}),
        submittedAt: new Date().toISOString(),
        ...(opts.quantity !== undefined ? { quantity: opts.quantity } : {}),
        ...(opts.deliveryOption ? { deliveryOption: opts.deliveryOption } : {}),
        ...(opts.cardStyle ? { cardStyle: opts.cardStyle } : {}),
        ...(opts.orderId !== undefined ? { orderId: opts.orderId } : {}),
        ...(opts.shippingAddress ? { shippingAddress: opts.shippingAddress } : {}),
        clientToken: token.current,
      });
      toast({ title: DESIGN_MESSAGES.submittedTitle, description: DESIGN_MESSAGES.submitted });
      navigate(`/order-success?orderId=${res.orderId}`);
      return true;
    } catch (err) {
      onFieldErrors(formErrors(err));
      const detail = err instanceof ApiError && err.status === 400 ? errorMessage(err, DESIGN_MESSAGES.failed) : DESIGN_MESSAGES.failed;
      toast({ title: DESIGN_MESSAGES.failedTitle, description: detail, variant: 'destructive' });
      return false;
    }
  }

  return { run, saveDetails, isPending: saveProfile.isPending || submit.isPending };
}
