import { usePageTitle } from '#web/lib/use-page-title';
import { OrderForm } from '#web/features/orders/components/order-form';

export default function OrderPage() {
  usePageTitle('Place Your Order', 'Order premium metal business cards: choose the metal, style, quantity and delivery, upload your artwork and see your total.');
  return <OrderForm />;
}
