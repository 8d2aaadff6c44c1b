import { BILLING_MESSAGES } from '../../src/domain/billing.ts';
import { HttpError, badRequest, conflict } from '../http-error.ts';

/** How billing refuses a request, each with the message and field the checkout form shows. */

/** 402: the card was refused; the message is the gateway's reason (C§5 "card info must be valid"). */
export const paymentRefused = (message: string) => new HttpError(402, message, { fields: { paymentMethodId: message } });
export const gatewayDown = () => new HttpError(503, BILLING_MESSAGES.gatewayUnavailable);
export const couponRefused = (status = 400) => new HttpError(status, BILLING_MESSAGES.couponInvalid, { fields: { coupon: BILLING_MESSAGES.couponInvalid } });
export const alreadySubscribed = () => conflict(BILLING_MESSAGES.createFailed);
export const planUnavailable = () => badRequest(BILLING_MESSAGES.planUnavailable, { fields: { paymentPlanId: BILLING_MESSAGES.planUnavailable } });
export const cardUnusable = () => badRequest(BILLING_MESSAGES.paymentMethodInvalid, { fields: { paymentMethodId: BILLING_MESSAGES.paymentMethodInvalid } });
