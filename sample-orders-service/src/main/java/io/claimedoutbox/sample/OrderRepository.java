package io.claimedoutbox.sample;

import org.springframework.data.jpa.repository.JpaRepository;

/** Orders, through Spring Data JPA. */
public interface OrderRepository extends JpaRepository<CustomerOrder, String> {}
