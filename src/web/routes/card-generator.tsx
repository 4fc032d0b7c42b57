import { Navigate, useLocation } from 'react-router';

/** /card-generator is merged into the one designer, /design (issue 35, decision 35-03): the query is kept. */
export default function CardGeneratorPage() {
  const { search, hash } = useLocation();
  return <Navigate to={`/design${search}${hash}`} replace />;
}
