/**
 * GraphQL documents for the Shopify Storefront API (version 2025-01): the cart, its lines,
 * products and collections. Lines are read 250 at a time, delivery groups the first 10.
 */

const MONEY = 'amount currencyCode';

const MAILING_ADDRESS = 'address1 address2 city company country countryCodeV2 firstName lastName phone province provinceCode zip';

export const CART_LINE_FRAGMENT = `
fragment CartLineFragment on BaseCartLine {
  id
  quantity
  attributes { key value }
  cost {
    totalAmount { ${MONEY} }
    subtotalAmount { ${MONEY} }
    amountPerQuantity { ${MONEY} }
    compareAtAmountPerQuantity { ${MONEY} }
  }
  discountAllocations { discountedAmount { ${MONEY} } }
  merchandise {
    ... on ProductVariant {
      id
      title
      image { id url altText width height }
      product { id handle title }
      weight
      availableForSale
      sku
      selectedOptions { name value }
      compareAtPrice { ${MONEY} }
      price { ${MONEY} }
      unitPrice { ${MONEY} }
      unitPriceMeasurement { measuredType quantityUnit quantityValue referenceUnit referenceValue }
    }
  }
}`;

export const CART_FRAGMENT = `
fragment CartFragment on Cart {
  id
  createdAt
  updatedAt
  checkoutUrl
  note
  attributes { key value }
  cost {
    checkoutChargeAmount { ${MONEY} }
    totalAmount { ${MONEY} }
    subtotalAmount { ${MONEY} }
    totalTaxAmount { ${MONEY} }
    totalDutyAmount { ${MONEY} }
  }
  discountCodes { code applicable }
  discountAllocations {
    discountedAmount { ${MONEY} }
    ... on CartCodeDiscountAllocation { code }
    ... on CartAutomaticDiscountAllocation { title }
    ... on CartCustomDiscountAllocation { title }
  }
  buyerIdentity {
    countryCode
    email
    phone
    customer { email }
    deliveryAddressPreferences { ... on MailingAddress { ${MAILING_ADDRESS} } }
    preferences { delivery { deliveryMethod pickupHandle coordinates { latitude longitude countryCode } } }
  }
  deliveryGroups(first: 10) {
    edges {
      node {
        id
        deliveryAddress { ${MAILING_ADDRESS} }
        deliveryOptions { code handle title description deliveryMethodType estimatedCost { ${MONEY} } }
        selectedDeliveryOption { code handle title description deliveryMethodType estimatedCost { ${MONEY} } }
        cartLines(first: 250) { edges { node { id } } }
      }
    }
  }
  appliedGiftCards {
    id
    lastCharacters
    amountUsed { ${MONEY} }
    balance { ${MONEY} }
    presentmentAmountUsed { ${MONEY} }
  }
  lines(first: 250) { edges { node { ...CartLineFragment } } }
}
${CART_LINE_FRAGMENT}`;

const PAYLOAD = `cart { ...CartFragment } userErrors { field message code } warnings { code message }`;

const mutation = (name: string, args: string, call: string) =>
  `mutation ${name[0].toUpperCase()}${name.slice(1)}(${args}) { ${name}(${call}) { ${PAYLOAD} } }
${CART_FRAGMENT}`;

export const CART_QUERY = `query Cart($id: ID!) { cart(id: $id) { ...CartFragment } }
${CART_FRAGMENT}`;

export const CART_MUTATIONS = {
  cartCreate: mutation('cartCreate', '$input: CartInput', 'input: $input'),
  cartAttributesUpdate: mutation('cartAttributesUpdate', '$attributes: [AttributeInput!]!, $cartId: ID!', 'attributes: $attributes, cartId: $cartId'),
  cartNoteUpdate: mutation('cartNoteUpdate', '$cartId: ID!, $note: String!', 'cartId: $cartId, note: $note'),
  cartBuyerIdentityUpdate: mutation('cartBuyerIdentityUpdate', '$buyerIdentity: CartBuyerIdentityInput!, $cartId: ID!', 'buyerIdentity: $buyerIdentity, cartId: $cartId'),
  cartDiscountCodesUpdate: mutation('cartDiscountCodesUpdate', '$cartId: ID!, $discountCodes: [String!]!', 'cartId: $cartId, discountCodes: $discountCodes'),
  cartGiftCardCodesUpdate: mutation('cartGiftCardCodesUpdate', '$cartId: ID!, $giftCardCodes: [String!]!', 'cartId: $cartId, giftCardCodes: $giftCardCodes'),
  cartGiftCardCodesRemove: mutation('cartGiftCardCodesRemove', '$appliedGiftCardIds: [ID!]!, $cartId: ID!', 'appliedGiftCardIds: $appliedGiftCardIds, cartId: $cartId'),
  cartLinesAdd: mutation('cartLinesAdd', '$cartId: ID!, $lines: [CartLineInput!]!', 'cartId: $cartId, lines: $lines'),
  cartLinesRemove: mutation('cartLinesRemove', '$cartId: ID!, $lineIds: [ID!]!', 'cartId: $cartId, lineIds: $lineIds'),
  cartLinesUpdate: mutation('cartLinesUpdate', '$cartId: ID!, $lines: [CartLineUpdateInput!]!', 'cartId: $cartId, lines: $lines'),
} as const;
export type CartMutationName = keyof typeof CART_MUTATIONS;

const PRODUCT_FIELDS = `
  id
  handle
  title
  description
  vendor
  productType
  availableForSale
  images(first: 10) { edges { node { id url altText width height } } }
  options { id name optionValues { name } }
  variants(first: 250) {
    edges {
      node {
        id
        title
        sku
        availableForSale
        price { ${MONEY} }
        compareAtPrice { ${MONEY} }
        selectedOptions { name value }
        image { id url altText width height }
      }
    }
  }`;

export const PRODUCTS_QUERY = `query Products($first: Int!, $after: String) {
  products(first: $first, after: $after) { pageInfo { hasNextPage endCursor } edges { node { ${PRODUCT_FIELDS} } } }
}`;

export const PRODUCT_QUERY = `query Product($id: ID!) { product(id: $id) { ${PRODUCT_FIELDS} } }`;

export const PRODUCT_BY_HANDLE_QUERY = `query ProductByHandle($handle: String!) { product(handle: $handle) { ${PRODUCT_FIELDS} } }`;

export const COLLECTIONS_QUERY = `query Collections($first: Int!, $after: String) {
  collections(first: $first, after: $after) { pageInfo { hasNextPage endCursor } edges { node { id handle title description image { id url altText } } } }
}`;

export const COLLECTION_WITH_PRODUCTS_QUERY = `query CollectionWithProducts($id: ID!, $first: Int!) {
  collection(id: $id) { id handle title description image { id url altText } products(first: $first) { edges { node { ${PRODUCT_FIELDS} } } } }
}`;

export const SHOP_QUERY = `query Shop { shop { name primaryDomain { host url } } }`;
