import { sql } from 'drizzle-orm';
import { hashPassword } from '../src/server/features/auth/auth.service';
import type { Db } from '../src/server/db/client';

export const BENCH_PASSWORD = 'bench-password-1';
export const BENCH_SIZES = { profiles: 1000, orders: 10_000, visits: 50_000 };

const LAYOUTS = ['classic', 'modern', 'minimal', 'creative', 'corporate'];

/**
 * Realistic volumes inserted directly in bulk SQL (seconds, not minutes): 1,000 users each with a
 * profile and two links, 10,000 orders with their status history, 50,000 visits over 90 days.
 * Works on PGlite and PostgreSQL alike. Profile ids are bench1 ... bench1000.
 */
export async function seedBenchData(db: Db, sizes = BENCH_SIZES): Promise<{ profileIds: string[] }> {
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  await db.execute(sql`
    insert into users (username, email, password_hash, first_name, last_name)
    select 'bench_user_' || g, 'bench' || g || '@example.com', ${passwordHash}, 'First' || g, 'Last' || g
    from generate_series(1, ${sizes.profiles}) g
    on conflict do nothing`);
  await db.execute(sql`
    insert into profiles (id, user_id, full_name, job_title, email, phone_number, address, company_name, profile_template)
    select 'bench' || g, u.id, 'Alex Bench ' || g, (array['Founder','Designer','Engineer','Realtor','Attorney'])[1 + g % 5],
           'alex' || g || '@example.com', '+1 212 555 ' || lpad((g % 10000)::text, 4, '0'), g || ' Broadway, New York, NY 10001',
           'Company ' || (g % 97), (${sql.raw(`array[${LAYOUTS.map((l) => `'${l}'`).join(',')}]`)})[1 + g % 5]
    from generate_series(1, ${sizes.profiles}) g
    join users u on u.username = 'bench_user_' || g
    on conflict do nothing`);
  await db.execute(sql`
    insert into profile_links (profile_id, link_type, url, position)
    select 'bench' || g, l.t, l.u || g, l.p
    from generate_series(1, ${sizes.profiles}) g
    cross join (values ('website', 'https://example.com/alex', 0), ('linkedin', 'https://www.linkedin.com/in/alex-bench-', 1)) as l(t, u, p)`);
  await db.execute(sql`
    insert into orders (status, customer_name, email, phone, company_name, position, quantity, card_type, card_style,
                        delivery_option, unit_price_cents, delivery_fee_cents, total_cents, price_snapshot, status_token, source, created_at)
    select (array['pending','processing','in-production','shipped','completed','cancelled'])[1 + g % 6],
           'Customer ' || g, 'customer' || g || '@example.com', '+1 212 555 0100', 'Company ' || (g % 97), 'Manager',
           (array[50,100,250,500])[1 + g % 4], (array['standard','color','black_anodized','luxury_titanium'])[1 + g % 4],
           (array['Matte','Brushed','Mirror','Custom'])[1 + g % 4], (array['standard','rush-24h','same-day-manhattan','pickup-nyc'])[1 + g % 4],
           (array[400,500,700,900])[1 + g % 4], (array[0,3000,5000,0])[1 + g % 4],
           (array[400,500,700,900])[1 + g % 4] * (array[50,100,250,500])[1 + g % 4] + (array[0,3000,5000,0])[1 + g % 4],
           '{}'::jsonb, md5('bench-order-' || g) || md5('token-' || g), 'order-form', now() - (g % 365) * interval '1 day'
    from generate_series(1, ${sizes.orders}) g`);
  await db.execute(sql`
    insert into order_status_history (order_id, from_status, to_status, changed_by_label, created_at)
    select id, null, 'pending', 'system', created_at from orders where customer_name like 'Customer %'`);
  // bigint: g * 7919 passes the 32-bit range past g = 271,178 (the move bench seeds 1,000,000); in
  // statements of 100,000 rows, so one statement's rollup (its trigger's transition table) stays small
  for (let from = 1; from <= sizes.visits; from += 100_000) {
    const to = Math.min(sizes.visits, from + 99_999);
    await db.execute(sql`
      insert into visits (profile_id, created_at, user_agent, device, source)
      select 'bench' || (1 + (g * 7919) % ${sizes.profiles}), now() - ((g * 31) % (90 * 24 * 60)) * interval '1 minute',
             'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)', (array['Mobile','Desktop','Mobile','Unknown'])[1 + g % 4],
             (array['direct','link','qr'])[1 + g % 3]
      from generate_series(${from}::bigint, ${to}::bigint) g`);
  }
  await db.execute(sql`analyze`);
  return { profileIds: Array.from({ length: sizes.profiles }, (_, i) => `bench${i + 1}`) };
}
