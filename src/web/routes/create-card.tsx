import { Navigate, useLocation } from 'react-router';

/** /create-card is merged into the one designer, /design (issue 35, decision 35-03): the query (templateId, ...) is kept. */
export default function CreateCardPage() {
  const { search, hash } = useLocation();
  return <Navigate to={`/design${search}${hash}`} replace />;
}
