import { z } from 'zod';
import { emailField, MessageResponse } from './common';

export const SubscriptionCreateBody = z.strictObject({
  email: emailField('Please enter a valid email address'),
});

export const SubscriptionCreateResponse = MessageResponse;
