import { BUSINESS } from '#shared/catalogue';

/**
 * The default privacy policy and terms of service (issue 37): what the product really stores and
 * shares, read from its code (decision 37-01 lists where each line comes from). Staff replace them
 * in Admin > Settings; the format is plain text with a blank line between paragraphs, "## " before
 * a heading and "- " before a list item (rendered as text, never as HTML).
 */

export const PRIVACY_POLICY_DEFAULT = `${BUSINESS.name} (${BUSINESS.city}) makes metal business cards and the digital profile pages they link to. This policy says what we keep about you, why, who else sees it and how to have it removed.

## What we keep

- Your account: name, username, e-mail address and a password we store only as a one-way hash. A cookie keeps you signed in; we use no advertising or tracking cookies.
- Your orders: the name, e-mail, phone number and delivery address you give, the details printed on your cards, your artwork and special requests, the order's status history and its payment state. Card payments are taken by our online store's checkout; we never see or keep card numbers.
- Your digital profile: the photo, logos, contact details and links you add. Your profile page, its contact file and its wallet pass show them to anyone who has the link or scans your card.
- Contacts left for you: when someone shares their details through your profile's contact form (name, e-mail, phone, company and note), we keep them and e-mail them to you; on a team card, the team's administrators see them too.
- Statistics: for each view of a profile page we record the time, the device type, the browser's user agent and whether it came from a card, a link or directly; we also count link clicks and contact saves. We use no third-party analytics.
- E-mails we send you (order updates, proofs, sign-in and password messages, new contacts): a copy is kept in our mail log.
- Reviews: your name, e-mail address (never shown) and order number. Newsletter: your e-mail address.
- Security: to stop abuse we keep short-lived counters per address and per network address, and our servers' logs.

## Who else sees it

- The online store that runs our checkout (payments and store orders).
- Our e-mail provider, which delivers our messages, and our file storage provider, which holds uploaded images.
- Only when you use them: the AI design assistant (what you type is sent to the AI service we use), background removal (the image is sent to PhotoRoom), Apple Wallet or Google Wallet (your pass), and the webhook addresses you or your team set up.
- Our staff, to make, ship and support your order. We do not sell your data or share it for advertising.

## Your choices

- You can download everything your account holds and delete your account in Account settings. Deleting it removes your profile, images, cards and statistics at once; past orders stay in our business records without your name or contact details.
- To correct or remove anything else, write to ${BUSINESS.email}. We reply ${BUSINESS.claims.supportReply}.`;

export const TERMS_OF_SERVICE_DEFAULT = `These terms apply when you order cards from ${BUSINESS.name} (${BUSINESS.city}) or use our digital profiles. By creating an account or placing an order you accept them.

## Orders and prices

- Prices are per card, in US dollars, as shown in the catalogue when you order; delivery fees are shown before you confirm.
- Every design is reviewed by our staff before production. We may ask for changes (for example a logo that cannot be engraved) or decline designs that are unlawful or infringe someone else's rights.
- Production starts once your design is approved (and, where required, your proof and payment). The order page shows the date your cards ship by, or are ready for pickup.
- Cards are made to order. You can ask us to cancel an order until it goes into production; after that we refund only cards that are faulty or differ from the approved proof.

## Your content

- You keep the rights to the names, logos, photos and texts you upload, and you confirm you may use them. You allow us to use them to print your cards and to show your profile page.
- Your profile page is public to anyone with its link or your card's QR code. Do not publish anything unlawful, misleading or harmful; we may hide such content.
- Contact details that visitors share with you through your profile are theirs: use them only to reply to them.

## Reviews

Reviews are published once they are verified. A review sent while signed in with the account that placed the order, with its order number, is verified at once; others are checked by our staff first.

## Our responsibility

We make every card with care and replace cards that arrive faulty. We are not responsible for delays caused by carriers or events outside our control. Nothing in these terms limits rights you have by law.

## Contact

Questions about these terms: ${BUSINESS.email}, ${BUSINESS.phone}.`;
