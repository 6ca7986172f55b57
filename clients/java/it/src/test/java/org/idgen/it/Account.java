package org.idgen.it;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.idgen.PrefixedId;

/** accounts: keyed by the domain account_id, whose DEFAULT mints acct_... */
@Entity
@Table(name = "accounts")
public class Account
{
	// README snippet begins
	@Id
	@GeneratedValue(strategy = GenerationType.IDENTITY)
	private PrefixedId id;
	// README snippet ends

	private String name;

	protected Account()
	{
	}

	public Account(String name)
	{
		this.name = name;
	}

	public PrefixedId getId()
	{
		return id;
	}

	public String getName()
	{
		return name;
	}

	public void setName(String name)
	{
		this.name = name;
	}
}
