import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { getTeamSso } from '#shared/contracts/sso';
import { deleteTeamSsoSaml, getTeamSsoSaml, putTeamSsoSaml } from '#shared/contracts/sso/saml';
import { mockApi, renderWithProviders } from '#web/test/render';
import { SamlConnectionForm } from './saml-connection-form';

const sp = { entityId: 'http://localhost/api/sso/saml/t1/metadata', acsUrl: 'http://localhost/api/sso/saml/t1/acs', metadataUrl: 'http://localhost/api/sso/saml/t1/metadata' };
const idp = {
  entityId: 'https://sts.windows.net/tenant/',
  ssoUrl: 'https://login.microsoftonline.com/tenant/saml2',
  metadataUrl: null,
  certificates: [{ subject: 'CN=Microsoft Azure Federated SSO Certificate', notAfter: '2029-01-01T00:00:00.000Z', sha256: 'AB' }],
  savedAt: '2026-12-01T00:00:00.000Z',
};

describe('<SamlConnectionForm>', () => {
  it('shows our SP addresses, saves pasted metadata and shows the connected IdP', async () => {
    const api = mockApi();
    api.ok(getTeamSsoSaml, { sp, idp: null });
    api.ok(putTeamSsoSaml, { sp, idp });
    api.on(getTeamSso, () => ({ status: 200, body: {} }));
    const { user } = renderWithProviders(<SamlConnectionForm />);
    expect(await screen.findByTestId('saml-sp-acs-url')).toHaveTextContent(sp.acsUrl);
    expect(screen.getByTestId('saml-sp-entity-id')).toHaveTextContent(sp.entityId);
    expect(screen.getByRole('link', { name: 'Download our SP metadata' })).toHaveAttribute('href', sp.metadataUrl);
    await user.click(screen.getByLabelText('Identity provider metadata (XML)', { exact: true }));
    await user.paste('<md:EntityDescriptor/>');
    await user.click(screen.getByRole('button', { name: 'Save SAML connection' }));
    await waitFor(() => expect(api.sent(putTeamSsoSaml)).toHaveLength(1));
    expect(api.sent(putTeamSsoSaml)[0]!.body).toEqual({ metadataXml: '<md:EntityDescriptor/>' });
    expect(await screen.findByTestId('saml-idp')).toHaveTextContent('https://sts.windows.net/tenant/');
    expect(screen.getByRole('button', { name: 'Remove SAML connection' })).toBeInTheDocument();
  });

  it("shows the server's field message for a metadata address, and asks for one when empty", async () => {
    const api = mockApi();
    api.ok(getTeamSsoSaml, { sp, idp });
    api.fail(putTeamSsoSaml, 400, { message: 'The metadata address answered HTTP 404', errors: { metadataUrl: 'The metadata address answered HTTP 404' } });
    api.ok(deleteTeamSsoSaml, { sp, idp: null });
    const { user } = renderWithProviders(<SamlConnectionForm />);
    await user.click(await screen.findByLabelText('Metadata address (URL)', { exact: true }));
    await user.click(screen.getByRole('button', { name: 'Replace SAML connection' }));
    expect(await screen.findByText("Enter the address of your identity provider's metadata")).toBeInTheDocument();
    expect(api.sent(putTeamSsoSaml)).toHaveLength(0);
    await user.type(screen.getByLabelText('Identity provider metadata address', { exact: true }), 'https://idp.example.com/metadata');
    await user.click(screen.getByRole('button', { name: 'Replace SAML connection' }));
    expect((await screen.findAllByText('The metadata address answered HTTP 404')).length).toBeGreaterThan(0);
    expect(api.sent(putTeamSsoSaml)[0]!.body).toEqual({ metadataUrl: 'https://idp.example.com/metadata' });
  });
});
