import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { BUSINESS, CARD_TYPES, formatUsd } from '#shared/catalogue';
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from '#web/components/ui/accordion';
import { usePageTitle } from '#web/lib/use-page-title';
import { ContactBlock, PageIntro } from '#web/features/site/components/contact-block';
import { FAQS } from '#web/features/site/components/faq-entries';

export default function FaqPage() {
  usePageTitle(
    'Frequently Asked Questions',
    `Answers about our metal business cards: card types and prices from ${formatUsd(CARD_TYPES[0].priceCents)}, production in ${BUSINESS.claims.productionDays}, digital profiles, QR codes and shipping.`,
  );
  // a link to one answer (the footer's Pricing: /faq#card-types) opens it
  const { hash } = useLocation();
  const [open, setOpen] = useState<string[]>([]);
  useEffect(() => {
    const id = decodeURIComponent(hash.slice(1));
    if (FAQS.some((f) => f.id === id)) setOpen((o) => (o.includes(id) ? o : [...o, id]));
  }, [hash]);
  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:py-16">
      <PageIntro title="Frequently Asked Questions">Everything you need to know about our metal cards and digital profiles.</PageIntro>
      <Accordion type="multiple" value={open} onValueChange={setOpen} className="mt-10 rounded-xl border border-border bg-card px-5">
        {FAQS.map((f) => (
          <AccordionItem key={f.id} id={f.id} value={f.id} className="scroll-mt-24 last:border-b-0">
            <AccordionTrigger headingLevel={2}>{f.question}</AccordionTrigger>
            <AccordionContent className="space-y-2 leading-relaxed">{f.answer}</AccordionContent>
          </AccordionItem>
        ))}
      </Accordion>
      <ContactBlock />
    </div>
  );
}
