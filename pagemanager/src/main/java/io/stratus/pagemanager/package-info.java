/**
 * The page manager (paper 000, section 3.3): pages as storage items named by URI ({@link
 * io.stratus.pagemanager.Page}, stored by {@link io.stratus.pagemanager.PageCodec}), the shared TTL
 * buffer pool of clean committed pages ({@link io.stratus.pagemanager.BufferPool}), and the private
 * page view of one transaction ({@link io.stratus.pagemanager.PageTransaction}), which is the
 * {@link io.stratus.pagemanager.PageStore} the B-link trees work on.
 */
package io.stratus.pagemanager;
