package org.idgen.it;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.idgen.TypeId;

/** users: keyed by the domain user_id (typeid_define), whose DEFAULT mints user_... */
@Entity
@Table(name = "users")
public class ShopUser
{
	@Id
	@GeneratedValue(strategy = GenerationType.IDENTITY)
	private TypeId id;

	private String email;

	protected ShopUser()
	{
	}

	public ShopUser(String email)
	{
		this.email = email;
	}

	public TypeId getId()
	{
		return id;
	}

	public String getEmail()
	{
		return email;
	}
}
