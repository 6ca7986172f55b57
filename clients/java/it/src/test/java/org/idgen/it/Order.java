package org.idgen.it;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.util.UUID;
import org.hibernate.annotations.Generated;
import org.idgen.PrefixedId;
import org.idgen.TypeId;
import org.idgen.Ulid;

/** orders: id uuid DEFAULT uuid_v7(), ref ulid DEFAULT ulid(), two domain references. */
// README snippet begins
@Entity
@Table(name = "orders")
public class Order
{
	@Id
	@GeneratedValue(strategy = GenerationType.IDENTITY)
	private UUID id;

	@Generated
	@Column(nullable = false)
	private Ulid ref;

	@Column(name = "account_id", nullable = false)
	private PrefixedId accountId;

	@Column(name = "user_id")
	private TypeId userId;
// README snippet ends

	private String note;

	protected Order()
	{
	}

	public Order(PrefixedId accountId, TypeId userId, String note)
	{
		this.accountId = accountId;
		this.userId = userId;
		this.note = note;
	}

	public UUID getId()
	{
		return id;
	}

	public Ulid getRef()
	{
		return ref;
	}

	public PrefixedId getAccountId()
	{
		return accountId;
	}

	public TypeId getUserId()
	{
		return userId;
	}

	public String getNote()
	{
		return note;
	}

	public void setNote(String note)
	{
		this.note = note;
	}
}
