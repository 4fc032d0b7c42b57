// PLACEHOLDER: replaced by the helper that owns this page.
import { usePageTitle } from '#web/lib/use-page-title';

export default function Page() {
  usePageTitle('Order Success');
  return (
    <section className="mx-auto max-w-4xl px-4 py-16">
      <h1 className="text-3xl font-bold">Order Success</h1>
    </section>
  );
}
