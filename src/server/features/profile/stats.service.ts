import { desc, eq } from 'drizzle-orm';
import type { AppContext } from '#server/context';
import { userCardsQuery } from '#server/features/designs/reads';
import { templateNamesQuery } from '#server/features/templates/reads';
import type { UserCard } from '#shared/schemas/profile';

const num = (v: unknown, d: number) => (typeof v === 'number' && Number.isFinite(v) ? v : d);
const str = (v: unknown, d: string) => (typeof v === 'string' && v ? v : d);

/** GET /api/cards: the user's designed cards, newest first. */
export async function getUserCards(ctx: AppContext, userId: string): Promise<UserCard[]> {
  const cards = userCardsQuery(ctx.db, userId);
  const templates = templateNamesQuery(ctx.db);
  const rows = await ctx.db
    .select({
      c: {
        id: cards.id,
        templateId: cards.templateId,
        cardType: cards.cardType,
        status: cards.status,
        customizations: cards.customizations,
        frontImageUrl: cards.frontImageUrl,
        backImageUrl: cards.backImageUrl,
        qrCodeUrl: cards.qrCodeUrl,
        orderId: cards.orderId,
        reviewNotes: cards.reviewNotes,
        submittedAt: cards.submittedAt,
      },
      templateName: templates.name,
    })
    .from(cards)
    .leftJoin(templates, eq(templates.id, cards.templateId))
    .orderBy(desc(cards.submittedAt), desc(cards.id));
  return rows.map(({ c, templateName }) => {
    const cz = (c.customizations && typeof c.customizations === 'object' ? c.customizations : {}) as Record<string, unknown>;
    return {
      id: c.id,
      templateId: c.templateId,
      templateName: templateName ?? null,
      cardType: c.cardType,
      status: c.status,
      customizations: {
        layout: str(cz.layout, 'standard'),
        backgroundColor: str(cz.backgroundColor, '#000000'),
        textColor: str(cz.textColor, '#ffffff'),
        backgroundImageUrl: typeof cz.backgroundImageUrl === 'string' ? cz.backgroundImageUrl : null,
        overlayColor: typeof cz.overlayColor === 'string' ? cz.overlayColor : null,
        overlayOpacity: num(cz.overlayOpacity, 0.2),
      },
      frontImageUrl: c.frontImageUrl,
      backImageUrl: c.backImageUrl,
      qrCodeUrl: c.qrCodeUrl,
      qrGenerated: !!c.qrCodeUrl,
      orderId: c.orderId,
      reviewNotes: c.reviewNotes,
      submittedAt: c.submittedAt.toISOString(),
    };
  });
}
